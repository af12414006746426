package dev.railyard.diagnose;

import dev.railyard.bench.TextLines;
import dev.railyard.bench.ToolParseException;
import dev.railyard.bench.iperf3.Iperf3JsonParser;
import dev.railyard.bench.iperf3.Iperf3Result;
import dev.railyard.bench.iperf3.Iperf3TextParser;
import dev.railyard.bench.iperf3.Iperf3TextReport;
import dev.railyard.check.Fix;
import dev.railyard.model.CheckId;
import dev.railyard.model.Severity;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * iperf3 output, JSON or text. A failed run (an "error", or no result rows) is a FAIL with iperf3's own words; UDP
 * datagram loss is judged (1 % WARN, 10 % FAIL), so is an interval that moved nothing (a stall), and TCP
 * retransmits above 0.1 % of the segments sent.
 */
public record Iperf3Recogniser(boolean json) implements Recogniser {

    /** 1448-byte segments (1500 MTU less IP and TCP headers with timestamps) to put retransmits in proportion. */
    private static final double SEGMENT_BYTES = 1448;

    @Override
    public ToolKind tool() {
        return json ? ToolKind.IPERF3_JSON : ToolKind.IPERF3_TEXT;
    }

    @Override
    public List<String> signatureLiterals() {
        return json ? List.of("\"connecting_to\"", "\"bits_per_second\"", "\"event\"", "\"num_streams\"")
                : List.of("bits/sec", "iperf Done.", ERROR, OUT_OF_ORDER, "Connecting to host ");
    }

    @Override
    public boolean recognises(TextLines text) {
        if (json) {
            return text.line(text.firstNonBlank()).strip().startsWith("{") && text.find("\"connecting_to\"") > 0
                    || Iperf3JsonFragments.looksLike(text) && text.lines().stream().noneMatch(l -> l.contains("bits/sec"));
        }
        return text.find("iperf Done.") > 0 || text.lines().stream().anyMatch(l -> l.contains("bits/sec") && Iperf3TextParser.isRow(l))
                || text.lines().stream().anyMatch(l -> l.strip().startsWith(ERROR) || l.strip().startsWith(OUT_OF_ORDER))
                || banner(text);
    }

    /**
     * How iperf3 starts every error it prints ("iperf3: error - unable to connect to server: Connection refused"):
     * a run that failed before its first interval prints nothing else, and is still iperf3's output.
     */
    static final String ERROR = "iperf3: error";

    /** What iperf3 3.0-3.1 printed for each UDP datagram that came late ("... incoming packet = 208 and ..."). */
    static final String OUT_OF_ORDER = "iperf3: OUT OF ORDER";

    /** iperf3's client banner: "Connecting to host H, port P" (iperf2 says "Client connecting to"). */
    private static final Pattern CONNECTING = Pattern.compile("^Connecting to host \\S+, port \\d{1,5}\\s*$");

    /** A client that printed its banner and "Starting Test" (-V) but no interval yet: the paste ends before them. */
    static boolean banner(TextLines text) {
        return text.lines().stream().anyMatch(l -> CONNECTING.matcher(l.strip()).matches())
                && text.lines().stream().anyMatch(l -> l.strip().startsWith("Starting Test: protocol:")
                || l.strip().startsWith("[ ID] Interval") || l.strip().matches("\\[\\s*\\d+] local \\S+ port \\d+ connected to .*"));
    }

    /**
     * A paste with iperf3's own lines but no result row: datagrams out of order (WARN: reordering or loss on the
     * path, and no rate to judge), or a banner cut before the first interval (UNKNOWN: nothing measured yet).
     */
    private static Optional<ToolReading> withoutRows(TextLines text) {
        int late = 0, first = 0;
        for (int i = 1; i <= text.lines().size(); i++) {
            if (text.line(i).strip().startsWith(OUT_OF_ORDER)) {
                late++;
                if (first == 0) first = i;
            }
        }
        if (late > 0) {
            return Optional.of(new ToolReading(List.of(Diagnosis.of(CheckId.BENCH_IPERF3.id(), Severity.WARN,
                    "iperf3 UDP order", late + " UDP datagram" + (late == 1 ? "" : "s") + " arrived out of order, and the "
                            + "paste holds no interval or summary to give a rate or a loss",
                    Fix.lines(Fix.note("datagrams out of order are reordered or lost on the path (several links or "
                            + "queues, ECMP); iperf3 3.2 and later count them in the summary instead of one line each;"
                            + " rerun with a current iperf3 and keep the summary lines"),
                            Rerun.andDiagnose("the sender and receiver lines", "iperf3.txt")),
                    first, text.line(first), "iperf3")),
                    Parsed.none().withNumbers(List.of(new Measurement("datagrams out of order", late, "datagrams")))));
        }
        if (banner(text)) {
            int at = 0;
            for (int i = 1; i <= text.lines().size() && at == 0; i++) {
                if (CONNECTING.matcher(text.line(i).strip()).matches()) at = i;
            }
            return Optional.of(new ToolReading(List.of(Diagnosis.of(CheckId.BENCH_IPERF3.id(), Severity.UNKNOWN,
                    "iperf3 run", "the paste ends after iperf3's banner, before the first interval: nothing was "
                            + "measured in it", Rerun.andDiagnose("the intervals and the sender and receiver lines "
                            + "after \"- - -\"", "iperf3.txt"), at, text.line(at), "iperf3")), Parsed.none()));
        }
        return Optional.empty();
    }

    @Override
    public ToolReading read(TextLines text, DiagnoseTargets targets) {
        if (json && !(text.line(text.firstNonBlank()).strip().startsWith("{") && text.find("\"connecting_to\"") > 0)) {
            return Iperf3JsonFragments.read(text);
        }
        Iperf3TextReport report;
        try {
            report = json ? plain(new Iperf3JsonParser().parse(text.joined())) : new Iperf3TextParser().read(text);
        } catch (ToolParseException e) {
            if (!json && e.reason().startsWith("no iperf3 result rows")) {
                Optional<ToolReading> partial = withoutRows(text);
                if (partial.isPresent()) return partial.get();
            }
            // a document cut by the paste still holds its intervals; one iperf3 ended with an "error" stays a FAIL
            if (json && text.find("\"bits_per_second\"") > 0 && text.find("\"error\"") == 0) {
                return Iperf3JsonFragments.read(text);
            }
            return new ToolReading(List.of(Diagnosis.of(CheckId.BENCH_IPERF3.id(), Severity.FAIL, "iperf3 run", e.reason(),
                    serverSide(text, e.lineNumber()) ? clientFix() : serverFix(Server.in(text)), e.lineNumber(),
                    e.line(), "iperf3")),
                    Parsed.none());
        }
        Iperf3Result r = report.result();
        List<Diagnosis> out = new ArrayList<>();
        out.add(Diagnosis.of(CheckId.BENCH_IPERF3.id(), Severity.INFO, "iperf3 bandwidth", report.summary()
                ? String.format(Locale.ROOT, "sent %s Gb/s, received %s Gb/s over %.1f s (%d stream%s, %s%s)",
                        gbps(r.sentGbps()), gbps(r.receivedGbps()), r.seconds(), r.streams(),
                        r.streams() == 1 ? "" : "s", r.protocol(), r.retransmits().orElse(0) > 0
                                ? ", " + r.retransmits().getAsLong() + " retransmits" : "")
                : String.format(Locale.ROOT, "no summary in the paste (the run was cut short?): the median of %d "
                        + "intervals is %s Gb/s; the last interval is not the result", r.intervals().size(),
                        gbps(r.sentGbps())),
                report.summary() ? "" : Rerun.andDiagnose("the result is the sender and receiver lines after "
                        + "\"- - -\", at the end", "iperf3.txt"),
                0, "", "iperf3"));
        stall(text, report).ifPresent(out::add);
        report.lossPercent().ifPresent(loss -> {
            if (loss < 1) return;
            out.add(Diagnosis.of(CheckId.BENCH_IPERF3.id(), loss >= 10 ? Severity.FAIL : Severity.WARN, "iperf3 UDP loss",
                    String.format(Locale.ROOT, "%s%% of UDP datagrams lost (%d of %d)", pct(loss),
                            report.lostDatagrams(), report.totalDatagrams()),
                    lossFix(r.receivedGbps()),
                    report.lossLine(), text.line(report.lossLine()), "iperf3"));
        });
        if (r.retransmits().isPresent() && r.retransmits().getAsLong() > 0 && r.sentBytes() > 0
                && r.retransmits().getAsLong() > 0.001 * r.sentBytes() / SEGMENT_BYTES) {
            out.add(Diagnosis.of(CheckId.BENCH_IPERF3.id(), Severity.WARN, "iperf3 retransmits",
                    r.retransmits().getAsLong() + " TCP retransmits (over 0.1 % of the segments sent): packets were "
                            + "lost on the path",
                    Fix.lines(Fix.note("retransmits are lost segments: an MTU that differs along the path, or an "
                            + "interface dropping or erring; on both ends:"), pathFix(Server.in(text))),
                    0, "", "iperf3"));
        }
        List<Measurement> numbers = new ArrayList<>(List.of(
                new Measurement(report.summary() ? "sent" : "median interval", FioRecogniser.round(r.sentGbps()),
                        "Gb/s"),
                new Measurement(report.summary() ? "received" : "median interval (receiver)",
                        FioRecogniser.round(r.receivedGbps()), "Gb/s"),
                new Measurement("duration", r.seconds(), "s"),
                new Measurement("streams", r.streams(), "streams")));
        r.retransmits().ifPresent(n -> numbers.add(new Measurement("retransmits", n, "segments")));
        report.lossPercent().ifPresent(l -> numbers.add(new Measurement("UDP loss", FioRecogniser.round(l), "%")));
        if (report.zeroIntervals() > 0) {
            numbers.add(new Measurement("intervals at 0 bits/s", report.zeroIntervals(), "intervals"));
        }
        return new ToolReading(out, Parsed.of(r, numbers));
    }

    private static java.util.Optional<Diagnosis> stall(TextLines text, Iperf3TextReport report) {
        int zero = report.zeroIntervals(), all = (int) report.result().intervals().stream()
                .filter(i -> !i.omitted()).count();
        if (zero == 0) return java.util.Optional.empty();
        boolean none = zero >= all;
        return java.util.Optional.of(Diagnosis.of(CheckId.BENCH_IPERF3.id(), none ? Severity.FAIL : Severity.WARN,
                "iperf3 intervals", zero + " of " + all + " intervals moved 0 bits/s: "
                        + (none ? "no data got through" : "the transfer stalled"),
                Fix.lines(Fix.note("a stall with retransmits is loss on the path (an MTU mismatch, a flapping "
                        + "link, a full queue), without them the receiver not reading; on both ends, and the "
                        + "switch port:"), pathFix(Server.in(text))),
                report.firstZeroLine(), text.line(report.firstZeroLine()), "iperf3"));
    }

    /**
     * Whether line {@code at} came from the server: the nearest line before it that tells a side is the server's
     * ("Server listening on", "Accepted connection from"), not the client's ("Connecting to host", a command line
     * with -c). A paste can hold both sides, one after the other.
     */
    static boolean serverSide(TextLines text, int at) {
        for (int i = Math.min(at, text.lines().size()) - 1; i >= 1; i--) {
            String l = text.line(i).strip();
            if (l.startsWith("Server listening on") || l.startsWith("Accepted connection from")) return true;
            if (l.contains("Connecting to host") || Server.COMMAND.matcher(l).find()) return false;
        }
        return false;
    }

    /** An error on the server's side: the client stopped or lost its control connection; its output says why. */
    private static String clientFix() {
        return Fix.lines(Fix.note("this is the server's output: the client stopped or lost its control connection "
                + "mid-test; its own output says why: run the client again and diagnose that. The path between "
                + "them, on both ends:"), pathFix(Optional.empty()));
    }

    /**
     * Where the client connected, as iperf3 prints it: "Connecting to host H, port P" or JSON "connecting_to"; when
     * the run failed before printing either, the client's command line in the paste ("iperf3 -c H -p P").
     */
    record Server(String host, int port) {

        private static final Pattern TEXT = Pattern.compile("Connecting to host ([^\\s,]{1,255}), port (\\d{1,5})");
        private static final Pattern COMMAND = Pattern.compile("\\biperf3(?:\\.exe)?\\s.*?(?:-c|--client)[\\s=]+"
                + "([^\\s-][^\\s]{0,254})");
        private static final Pattern PORT = Pattern.compile("(?:^|\\s)(?:-p|--port)[\\s=]+(\\d{1,5})(?=\\s|$)");
        private static final Pattern JSON = Pattern.compile("\"connecting_to\"\\s*:\\s*\\{\\s*\"host\"\\s*:\\s*"
                + "\"([^\"\\s]{1,255})\"\\s*,\\s*\"port\"\\s*:\\s*(\\d{1,5})");
        private static final Pattern ADDRESS = Pattern.compile("[0-9A-Fa-f:.]*[.:][0-9A-Fa-f:.]*");

        static Optional<Server> in(TextLines text) {
            for (String l : text.lines()) {
                Matcher m = TEXT.matcher(l);
                if (m.find()) return Optional.of(new Server(m.group(1), Integer.parseInt(m.group(2))));
            }
            for (String l : text.lines()) {
                Matcher m = COMMAND.matcher(l);
                if (!m.find()) continue;
                Matcher p = PORT.matcher(l);
                return Optional.of(new Server(m.group(1), p.find() ? Integer.parseInt(p.group(1)) : 5201));
            }
            int at = text.find("\"connecting_to\"");
            if (at == 0) return Optional.empty();
            String near = String.join("\n", text.lines().subList(at - 1, Math.min(text.lines().size(), at + 3)));
            Matcher m = JSON.matcher(near);
            return m.find() ? Optional.of(new Server(m.group(1), Integer.parseInt(m.group(2)))) : Optional.empty();
        }

        /** ip route get takes an address, not a name. */
        boolean isAddress() {
            return ADDRESS.matcher(host).matches();
        }
    }

    private static String serverFix(Optional<Server> server) {
        if (server.isEmpty()) {
            return Fix.lines(Fix.note("start the server first, on the other node (it serves one client at a time), "
                    + "then run the client again:"), "iperf3 -s");
        }
        Server s = server.get();
        String start = Fix.lines(Fix.note("start the server first, on " + s.host() + " (it serves one client at a "
                + "time), then run the client again:"), "iperf3 -s -p " + s.port());
        return s.isAddress() ? Fix.lines(start, Fix.note("the way from here to it:"), "ip route get " + s.host())
                : start;
    }

    /** Drop counters, socket buffers now and at boot (as host.net.buffers sets them), and a rate the path carries. */
    private static String lossFix(double receivedGbps) {
        return Fix.lines(Fix.note("drops on this end, then on the other (RX dropped, overrun):"), "ip -s link",
                Fix.note("larger socket buffers, now and at boot:"),
                "sysctl -w net.core.rmem_max=268435456 net.core.wmem_max=268435456",
                "printf 'net.core.rmem_max = 268435456\\nnet.core.wmem_max = 268435456\\n' "
                        + "| tee -a /etc/sysctl.d/90-railyard-rdma.conf",
                Fix.note(String.format(Locale.ROOT, "then send at what the path carries: -b %sG (what arrived) "
                        + "with -w 4M", gbps(receivedGbps))));
    }

    /** Each interface's MTU and error counters, and which interface leads to the server. */
    private static String pathFix(Optional<Server> server) {
        String counters = Fix.lines("ip link show | grep mtu", "ip -s link");
        return server.filter(Server::isAddress).map(s -> Fix.lines(counters, "ip route get " + s.host()))
                .orElse(counters);
    }

    private static Iperf3TextReport plain(Iperf3Result r) {
        return new Iperf3TextReport(r, true, false, java.util.OptionalDouble.empty(), 0, 0, 0, 0, 0);
    }

    private static String gbps(double v) {
        return v >= 1 ? String.format(Locale.ROOT, "%.2f", v) : String.valueOf(FioRecogniser.round(v));
    }

    private static String pct(double v) {
        return v >= 10 ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.1f", v);
    }
}
