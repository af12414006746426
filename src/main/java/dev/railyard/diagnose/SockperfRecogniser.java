package dev.railyard.diagnose;

import dev.railyard.bench.TextLines;
import dev.railyard.bench.ToolParseException;
import dev.railyard.bench.sockperf.SockperfParser;
import dev.railyard.bench.sockperf.SockperfResult;
import dev.railyard.check.Fix;
import dev.railyard.model.CheckId;
import dev.railyard.model.Severity;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** sockperf client output: the latency or throughput summary, or the error that stopped it. */
public record SockperfRecogniser() implements Recogniser {

    private static final Pattern PERCENTILE =
            Pattern.compile("---> percentile\\s+(\\d{1,3}\\.\\d{1,6})\\s*=\\s*(\\d{1,12}(?:\\.\\d{1,9})?)");

    /** A percentile of ten samples says nothing; below this many the run measured nothing worth a verdict. */
    private static final long FEW_OBSERVATIONS = 10;

    @Override
    public ToolKind tool() {
        return ToolKind.SOCKPERF;
    }

    @Override
    public List<String> signatureLiterals() {
        return List.of("sockperf");
    }

    @Override
    public boolean recognises(TextLines text) {
        return text.find("sockperf: ") > 0 || text.find("sockperf[CLIENT]") > 0;
    }

    @Override
    public ToolReading read(TextLines text, DiagnoseTargets targets) {
        SockperfResult result;
        try {
            result = new SockperfParser().parse(text.joined());
        } catch (ToolParseException e) {
            if (!e.reason().startsWith("sockperf reported")) return partial(text, e);
            return new ToolReading(List.of(Diagnosis.of(CheckId.BENCH_SOCKPERF.id(), Severity.FAIL, "sockperf run", e.reason(),
                    serverFix(Target.in(text)),
                    e.lineNumber(), e.line(), "sockperf")), Parsed.none());
        }
        return switch (result) {
            case SockperfResult.PingPong p when p.observations().isPresent()
                    && p.observations().getAsLong() <= FEW_OBSERVATIONS -> new ToolReading(List.of(Diagnosis.of(
                    CheckId.BENCH_SOCKPERF.id(), Severity.UNKNOWN, "sockperf latency", String.format(Locale.ROOT,
                            "only %d observation%s (%.3f µs): not a latency measurement",
                            p.observations().getAsLong(), p.observations().getAsLong() == 1 ? "" : "s", p.avgUs()),
                    rerun(text, "a valid duration of 0 s means the test ended as it began: with the server "
                            + "answering, 10 s (-t 10) gives thousands of observations"),
                    text.find("observations"), text.line(text.find("observations")), "sockperf")),
                    Parsed.of(p, latency(p)));
            case SockperfResult.PingPong p -> new ToolReading(List.of(Diagnosis.of(CheckId.BENCH_SOCKPERF.id(), Severity.INFO,
                    "sockperf latency", String.format(Locale.ROOT, "average %.3f µs%s%s", p.avgUs(),
                            p.roundTrip() ? " round trip" : "", p.p99Us().isPresent()
                                    ? String.format(Locale.ROOT, ", p99 %.3f µs", p.p99Us().getAsDouble()) : ""),
                    "", 0, "", "sockperf")), Parsed.of(p, latency(p)));
            case SockperfResult.Throughput t -> new ToolReading(List.of(Diagnosis.of(CheckId.BENCH_SOCKPERF.id(), Severity.INFO,
                    "sockperf throughput", String.format(Locale.ROOT, "%.3f Gb/s (%d msg/s)", t.gbps(),
                            t.messagesPerSecond()), "", 0, "", "sockperf")),
                    Parsed.of(t, List.of(new Measurement("throughput", t.gbps(), "Gb/s"),
                            new Measurement("messages", t.messagesPerSecond(), "msg/s"))));
        };
    }

    /**
     * No summary line: a paste of part of the output (the percentile block alone) or a run that did not finish.
     * Neither is a failure the paste proves, so the percentiles it holds are reported and the verdict is UNKNOWN.
     */
    private static ToolReading partial(TextLines text, ToolParseException e) {
        List<Measurement> numbers = new ArrayList<>();
        int first = 0;
        for (int i = 1; i <= text.lines().size(); i++) {
            Matcher m = PERCENTILE.matcher(text.line(i));
            if (!m.find()) continue;
            if (first == 0) first = i;
            numbers.add(new Measurement("p" + m.group(1).replaceAll("0+$", "").replaceAll("\\.$", ""),
                    Double.parseDouble(m.group(2)), "µs"));
        }
        String cause = numbers.isEmpty() ? e.reason()
                : "percentiles only, no avg-lat/avg-rtt summary line in the paste: it cannot say whether they are "
                        + "one-way or round-trip";
        return new ToolReading(List.of(Diagnosis.of(CheckId.BENCH_SOCKPERF.id(), Severity.UNKNOWN, "sockperf latency", cause,
                rerun(text, "the avg-lat or avg-rtt summary line says whether these are one-way or round trip"),
                first > 0 ? first : e.lineNumber(), first > 0 ? text.line(first) : e.line(), "sockperf")),
                Parsed.none().withNumbers(numbers));
    }

    /** The server the client named: "[ 0] IP = 10.0.0.2  PORT = 11111 # TCP". */
    record Target(String ip, int port, boolean tcp) {

        private static final Pattern LINE =
                Pattern.compile("IP = ([0-9A-Fa-f:.]{2,45})\\s+PORT = \\s*(\\d{1,5}) # (TCP|UDP)");

        static Optional<Target> in(TextLines text) {
            for (String l : text.lines()) {
                Matcher m = LINE.matcher(l);
                if (m.find()) return Optional.of(new Target(m.group(1), Integer.parseInt(m.group(2)),
                        m.group(3).equals("TCP")));
            }
            return Optional.empty();
        }

        String args() {
            return "-i " + ip + " -p " + port + (tcp ? " --tcp" : "");
        }
    }

    private static String serverFix(Optional<Target> target) {
        return target.map(t -> Fix.lines(Fix.note("start the server first, on " + t.ip() + ", in the client's mode ("
                        + (t.tcp() ? "TCP" : "UDP") + "):"), "sockperf server " + t.args()))
                .orElse(Fix.lines(Fix.note("start the server first, on the other node, with the client's --tcp (or "
                        + "without, for UDP) and -p:"), "sockperf server --tcp"));
    }

    /** The ping-pong run again for 10 s, kept whole, when the paste names the server; else the steps to get one. */
    private static String rerun(TextLines text, String why) {
        return Target.in(text).map(t -> Rerun.andDiagnose(why, "sockperf ping-pong " + t.args() + " -t 10",
                "sockperf.txt")).orElse(Rerun.andDiagnose(why, "sockperf.txt"));
    }

    private static List<Measurement> latency(SockperfResult.PingPong p) {
        String unit = p.roundTrip() ? "µs round trip" : "µs one way";
        List<Measurement> out = new ArrayList<>(List.of(new Measurement("average", p.avgUs(), unit)));
        p.p50Us().ifPresent(v -> out.add(new Measurement("p50", v, unit)));
        p.p99Us().ifPresent(v -> out.add(new Measurement("p99", v, unit)));
        p.maxUs().ifPresent(v -> out.add(new Measurement("max", v, unit)));
        return out;
    }
}
