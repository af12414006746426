package dev.railyard.model;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An error perftest printed, recognised from its text, with the fix. The kinds and fixes come from the seeds'
 * troubleshooting rows and from the real failures in realdata/perftest. {@code lineNumber} is 1-based in the
 * text given to the parser.
 */
public record PerftestFailure(Kind kind, int lineNumber, String line, String detail) {

    public String fix() {
        return kind.fix;
    }

    public enum Kind {
        NO_DEVICES("no RDMA device is visible",
                "load the RDMA driver (modprobe mlx4_ib or mlx5_ib) and check that `ibv_devices` lists the HCA"),
        DEVICE_NOT_FOUND("the --ib-dev device does not exist",
                "pick a device that `ibv_devices` lists and pass it with --ib-dev"),
        PORT_DOWN("the chosen port is Down",
                "check the cable and `rdma link show` / `ibstat`; pass the port the cable is in with --ib-port"),
        NO_CONTEXT("perftest could not open the device",
                "check --ib-dev and --ib-port against `ibv_devinfo`; a Down port also gives this"),
        GID_NOT_FOUND("no usable GID at the requested index",
                "pass the RoCE v2 IPv4 GID with --gid-index (see `show_gids`); the netdev needs an IPv4 address"),
        CONNECT_FAILED("the client could not reach the server's TCP port",
                "start the server side first, use the same -p on both sides, and open TCP 18515 (default) between them"),
        COMPLETION_ERROR("a work completion came back with an error status",
                "status 12 (retry exceeded) on RoCE usually means a wrong --gid-index, MTU or a switch dropping RoCE; "
                        + "status 10 (remote access) means the peer rejected the access: run identical options on "
                        + "both sides and check the server is still up"),
        RUN_FAILED("the test stopped before finishing its table",
                "read the error lines above it; rerun with the same options on both sides");

        private final String meaning;
        private final String fix;

        Kind(String meaning, String fix) {
            this.meaning = meaning;
            this.fix = fix;
        }

        public String meaning() {
            return meaning;
        }
    }

    private static final Pattern PORT_DOWN = Pattern.compile("Port number (\\d+) state is Down");
    private static final Pattern FAILED_STATUS =
            Pattern.compile("Failed status (\\d+): wr_id (\\d+) syndr?om (0x[0-9a-fA-F]+)");
    private static final Pattern CONNECT = Pattern.compile("Couldn't connect to (\\S+)");
    private static final Pattern NO_DEVICE_NAMED = Pattern.compile("IB device (\\S+) not found");

    /** The failure this line reports, if it is one of perftest's error messages. */
    public static Optional<PerftestFailure> recognise(String line, int lineNumber) {
        Matcher m;
        if ((m = PORT_DOWN.matcher(line)).find()) {
            return Optional.of(new PerftestFailure(Kind.PORT_DOWN, lineNumber, line, "port " + m.group(1)));
        }
        if ((m = FAILED_STATUS.matcher(line)).find()) {
            String status = m.group(1);
            return Optional.of(new PerftestFailure(Kind.COMPLETION_ERROR, lineNumber, line,
                    "status " + status + " (" + wcStatus(Integer.parseInt(status)) + "), syndrome " + m.group(3)));
        }
        if ((m = CONNECT.matcher(line)).find()) {
            return Optional.of(new PerftestFailure(Kind.CONNECT_FAILED, lineNumber, line, m.group(1)));
        }
        if ((m = NO_DEVICE_NAMED.matcher(line)).find()) {
            return Optional.of(new PerftestFailure(Kind.DEVICE_NOT_FOUND, lineNumber, line, m.group(1)));
        }
        Kind kind = null;
        if (line.contains("No RDMA devices found") || line.contains("No IB devices found")) kind = Kind.NO_DEVICES;
        else if (line.contains("Couldn't get context")) kind = Kind.NO_CONTEXT;
        else if (line.contains("Unable to find GID") || line.contains("Failed to get GID")) kind = Kind.GID_NOT_FOUND;
        else if (line.contains("Completion with error")) kind = Kind.COMPLETION_ERROR;
        else if (line.contains("Unable to init the socket connection")
                || line.contains("Couldn't read remote address")) kind = Kind.CONNECT_FAILED;
        else if (line.contains("Failed to complete run_iter")) kind = Kind.RUN_FAILED;
        if (kind == null) return Optional.empty();
        return Optional.of(new PerftestFailure(kind, lineNumber, line, kind.meaning));
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
