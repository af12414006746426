package dev.railyard.bench.perftest;

import dev.railyard.model.PerftestFailure;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The lines of perftest's output that say a run failed, and which failure each one is. */
final class PerftestFailureLines {

    private PerftestFailureLines() {
    }

    private static final Pattern PORT_DOWN = Pattern.compile("Port number (\\d+) state is Down");
    private static final Pattern FAILED_STATUS =
            Pattern.compile("Failed status (\\d+): wr_id (\\d+) syndr?om (0x[0-9a-fA-F]+)");
    private static final Pattern CONNECT = Pattern.compile("Couldn't connect to (\\S+)");
    private static final Pattern NO_DEVICE_NAMED = Pattern.compile("IB device (\\S+) not found");

    /** The failure this line reports, if it is one of perftest's error messages. */
    static Optional<PerftestFailure> recognise(String line, int lineNumber) {
        Matcher m;
        if ((m = PORT_DOWN.matcher(line)).find()) {
            return Optional.of(new PerftestFailure(PerftestFailure.Kind.PORT_DOWN, lineNumber, line, "port " + m.group(1)));
        }
        if ((m = FAILED_STATUS.matcher(line)).find()) {
            String status = m.group(1);
            return Optional.of(new PerftestFailure(PerftestFailure.Kind.COMPLETION_ERROR, lineNumber, line,
                    "status " + status + " (" + wcStatus(Integer.parseInt(status)) + "), syndrome " + m.group(3)));
        }
        if ((m = CONNECT.matcher(line)).find()) {
            return Optional.of(new PerftestFailure(PerftestFailure.Kind.CONNECT_FAILED, lineNumber, line, m.group(1)));
        }
        if ((m = NO_DEVICE_NAMED.matcher(line)).find()) {
            return Optional.of(new PerftestFailure(PerftestFailure.Kind.DEVICE_NOT_FOUND, lineNumber, line, m.group(1)));
        }
        PerftestFailure.Kind kind = null;
        if (line.contains("No RDMA devices found") || line.contains("No IB devices found")) kind = PerftestFailure.Kind.NO_DEVICES;
        else if (line.contains("Couldn't get context")) kind = PerftestFailure.Kind.NO_CONTEXT;
        else if (line.contains("Unable to find GID") || line.contains("Failed to get GID")) kind = PerftestFailure.Kind.GID_NOT_FOUND;
        else if (line.contains("Completion with error")) kind = PerftestFailure.Kind.COMPLETION_ERROR;
        else if (line.contains("Unable to init the socket connection")
                || line.contains("Couldn't read remote address")) kind = PerftestFailure.Kind.CONNECT_FAILED;
        else if (line.contains("Failed to complete run_iter")) kind = PerftestFailure.Kind.RUN_FAILED;
        if (kind == null) return Optional.empty();
        return Optional.of(new PerftestFailure(kind, lineNumber, line, kind.meaning()));
    }

    /** Names from enum ibv_wc_status (libibverbs verbs.h). */
    static String wcStatus(int status) {
        return switch (status) {
            case 1 -> "IBV_WC_LOC_LEN_ERR";
            case 2 -> "IBV_WC_LOC_QP_OP_ERR";
            case 4 -> "IBV_WC_LOC_PROT_ERR";
            case 5 -> "IBV_WC_WR_FLUSH_ERR";
            case 8 -> "IBV_WC_LOC_ACCESS_ERR";
            case 9 -> "IBV_WC_REM_INV_REQ_ERR";
            case 10 -> "IBV_WC_REM_ACCESS_ERR";
            case 11 -> "IBV_WC_REM_OP_ERR";
            case 12 -> "IBV_WC_RETRY_EXC_ERR";
            case 13 -> "IBV_WC_RNR_RETRY_EXC_ERR";
            default -> "status " + status;
        };
    }
}
