package dev.railyard.diagnose;

import dev.railyard.bench.TextLines;
import dev.railyard.check.Fix;
import dev.railyard.check.ShellWord;
import dev.railyard.model.CheckId;
import dev.railyard.model.Severity;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * rdma statistic (iproute2): a port's hw_counters as "link mlx5_0/1 rx_write_requests 0 out_of_buffer 0 ...", on one
 * line, wrapped over several, or one counter a line under "link mlx5_0/1" (-p), with "Optional-set:" counters; also
 * the same counters as `grep . .../ports/1/hw_counters/*` prints them. Error counters above 0 are a WARN naming what
 * they mean: the counters run since the driver loaded, so one paste cannot tell whether they still rise (never a
 * FAIL, as a PMA counter in one snapshot is a WARN). Congestion counters (ECN marks, CNPs) are not faults: an INFO.
 */
public record RdmaStatisticRecogniser() implements Recogniser {

    private static final Pattern HEAD = Pattern.compile("^\\s*link (\\S+)/(\\d{1,3})(?:\\s+(.*))?$");
    private static final Pattern HW_FILE = Pattern.compile("infiniband/([^/\\s]+)/ports/(\\d{1,3})/hw_counters/(\\w+):"
            + "\\s*(\\d+)\\s*$");
    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final Pattern NUMBER = Pattern.compile("\\d{1,18}");
    private static final Pattern QUOTE = Pattern.compile("^(?:>\\s?)+");
    /** Words of `rdma statistic qp show` that are not counters. */
    private static final Set<String> NOT_COUNTERS = Set.of("cntn", "pid", "comm", "lqpn", "qp", "type", "supported",
            "optional");
    private static final Pattern ERROR = Pattern.compile("err|invalid|out_of_buffer|out_of_sequence|timeout|retry"
            + "|discard|drop|icrc|unresponsive");
    private static final Pattern CONGESTION = Pattern.compile("cnp|ecn|cc_rx_ce|adp_retrans|slow_restart");

    /** One port's counters, in the order the paste shows them, and the line its block starts on. */
    record Port(String device, int port, Map<String, Long> counters, int line) {
        String name() {
            return device + "/" + port;
        }
    }

    @Override
    public ToolKind tool() {
        return ToolKind.RDMA_STATISTIC;
    }

    @Override
    public List<String> signatureLiterals() {
        return List.of("rx_write_requests", "out_of_buffer", "local_ack_timeout_err", "rnr_nak_retry_err",
                "/hw_counters/", "retrans_timeout_events", "rdma stat");
    }

    @Override
    public boolean recognises(TextLines text) {
        return read(text).stream().anyMatch(p -> p.counters().size() >= 3);
    }

    @Override
    public ToolReading read(TextLines text, DiagnoseTargets targets) {
        List<Port> ports = read(text).stream().filter(p -> !p.counters().isEmpty()).toList();
        List<Diagnosis> out = new ArrayList<>();
        List<Measurement> numbers = new ArrayList<>();
        List<String> clean = new ArrayList<>();
        for (Port p : ports) {
            List<String> errors = new ArrayList<>();
            List<String> congestion = new ArrayList<>();
            p.counters().forEach((name, v) -> {
                if (v == 0) return;
                if (ERROR.matcher(name).find()) {
                    errors.add(name + "=" + v);
                    numbers.add(new Measurement(name + " on " + p.name(), v, "count"));
                } else if (CONGESTION.matcher(name).find()) {
                    congestion.add(name + "=" + v);
                    numbers.add(new Measurement(name + " on " + p.name(), v, "count"));
                }
            });
            if (!errors.isEmpty()) {
                out.add(Diagnosis.of(CheckId.RDMA_RETRY_EXCEEDED.id(), Severity.WARN, p.name(),
                        String.join(", ", errors) + ": " + meaning(errors) + "; the counters run since the driver "
                                + "loaded, so one paste cannot tell whether they still rise", fix(p, errors),
                        p.line(), text.line(p.line()), "rdma statistic"));
            } else {
                clean.add(p.name());
            }
            if (!congestion.isEmpty()) {
                out.add(Diagnosis.of(CheckId.RDMA_RETRY_EXCEEDED.id(), Severity.INFO, p.name(),
                        String.join(", ", congestion) + ": congestion control acted (switches marked packets with "
                                + "ECN and the NICs slowed down on CNPs); not a fault by itself, but a sign the "
                                + "fabric was congested", "", p.line(), text.line(p.line()), "rdma statistic"));
            }
        }
        if (!clean.isEmpty()) {
            out.add(Diagnosis.of(CheckId.RDMA_RETRY_EXCEEDED.id(), Severity.PASS, String.join(", ", clean),
                    "no error counter above 0 (" + ports.stream().filter(p -> clean.contains(p.name()))
                            .mapToInt(p -> p.counters().size()).max().orElse(0) + " counters a port)",
                    "", 0, "", "rdma statistic"));
        }
        numbers.add(new Measurement("ports", ports.size(), "ports"));
        return new ToolReading(out, Parsed.none().withNumbers(numbers));
    }

    /** What the first kind of error counter in the list means, the gravest kinds first. */
    private static String meaning(List<String> errors) {
        String all = String.join(" ", errors);
        if (all.matches(".*(local_ack_timeout|out_of_sequence|packet_seq_err|implied_nak_seq|retrans_timeout).*")) {
            return "packets were lost on the path (the requester waited for ACKs and retransmitted, or the responder "
                    + "saw a gap in the sequence): on RoCE the fabric is not lossless for this traffic (PFC on its "
                    + "priority, ECN on the switches); on InfiniBand a link with errors";
        }
        if (all.contains("rnr_nak_retry") || all.contains("out_of_buffer")) {
            return "messages arrived with no receive buffer posted (RNR): the application posts receives too slowly "
                    + "or its receive queue is too small, and a request that runs out of RNR retries fails";
        }
        if (all.contains("icrc")) {
            return "RoCE packets arrived with a bad ICRC: something on the path corrupts or rewrites them";
        }
        if (all.matches(".*(remote_access|remote_invalid|length_error).*")) {
            return "work requests used a wrong memory key, address or length (or the peer deregistered the memory): "
                    + "a fault of the program, not of the fabric";
        }
        if (all.contains("cqe_error")) {
            return "work requests completed with an error; the *_flush_error counts are requests flushed after a "
                    + "queue pair went to the error state, so the first error is what to look for";
        }
        return "the device counted errors or dropped packets";
    }

    /** The counters again after the job (only those that rise matter), and where to look for their cause. */
    private static String fix(Port p, List<String> errors) {
        String port = ShellWord.of(p.name());
        String dir = ShellWord.of("/sys/class/infiniband/" + p.device() + "/ports/" + p.port() + "/hw_counters/");
        List<String> lines = new ArrayList<>(List.of(
                "rdma statistic show link " + port + "   # again after the next job: only counters that rise matter",
                "rdma link show " + port));
        String all = String.join(" ", errors);
        if (all.matches(".*(local_ack_timeout|out_of_sequence|seq_err|retrans_timeout|icrc).*")) {
            lines.add("grep . " + dir + "*cnp* " + dir + "*ecn*   # ECN and CNP counters: is congestion control on?");
            lines.add(Fix.note("RoCE: PFC on the RoCE priority on the NIC and every switch port of the path "
                    + "(mlnx_qos -i with the netdev rdma link shows), ECN on the switches; InfiniBand: perfquery -x "
                    + "on this port for link errors"));
        } else if (all.contains("rnr_nak") || all.contains("out_of_buffer")) {
            lines.add(Fix.note("raise the receive queue depth or post receives earlier in the application "
                    + "(UCX/NCCL: their receive queue settings)"));
        } else {
            lines.add(Fix.note("the first failed work completion's status, in the application's log, names the "
                    + "cause"));
        }
        return Fix.lines(lines.toArray(String[]::new));
    }

    /** Every port block of the paste; a port shown twice keeps its last values. */
    static List<Port> read(TextLines text) {
        Map<String, Port> ports = new LinkedHashMap<>();
        List<String> lines = text.lines();
        Port current = null;
        String pending = null;
        for (int i = 0; i < lines.size(); i++) {
            // a reply quotes the output with "> "; under a host prefix the quote marks stay on the line
            String l = QUOTE.matcher(lines.get(i).strip()).replaceFirst("").strip();
            Matcher file = HW_FILE.matcher(l);
            if (file.find()) {
                String key = file.group(1) + "/" + file.group(2);
                int n = i + 1;
                Port p = ports.computeIfAbsent(key, k -> new Port(file.group(1), Integer.parseInt(file.group(2)),
                        new LinkedHashMap<>(), n));
                if (NUMBER.matcher(file.group(4)).matches()) {
                    p.counters().put(file.group(3), Long.parseLong(file.group(4)));
                }
                current = null;
                continue;
            }
            Matcher head = HEAD.matcher(l);
            if (head.find() && !l.contains("physical_state") && !l.contains("optional-counters")) {
                current = new Port(head.group(1), Integer.parseInt(head.group(2)), new LinkedHashMap<>(), i + 1);
                ports.put(current.name(), current);
                pending = pairs(head.group(3) == null ? "" : head.group(3), current, null);
                continue;
            }
            if (current == null) continue;
            if (l.startsWith("Optional-set:")) l = l.substring("Optional-set:".length()).strip();
            if (l.startsWith("LQPN:")) continue;
            if (l.isEmpty() || !continues(l)) {
                current = null;
                continue;
            }
            pending = pairs(l, current, pending);
        }
        return List.copyOf(ports.values());
    }

    /** A line that only holds counter names and values: the rest of a wrapped block, or a -p line. */
    private static boolean continues(String line) {
        for (String t : line.split("\\s+")) {
            if (!NAME.matcher(t).matches() && !NUMBER.matcher(t).matches()) return false;
        }
        return true;
    }

    /** Name-value pairs into the port; returns a name whose value is on the next line (a wrapped block). */
    private static String pairs(String text, Port port, String pending) {
        String name = pending;
        for (String t : text.strip().split("\\s+")) {
            if (t.isEmpty()) continue;
            if (NUMBER.matcher(t).matches()) {
                if (name != null && !NOT_COUNTERS.contains(name.toLowerCase(java.util.Locale.ROOT))) {
                    port.counters().put(name, Long.parseLong(t));
                }
                name = null;
            } else {
                name = NAME.matcher(t).matches() ? t : null;
            }
        }
        return name;
    }
}
