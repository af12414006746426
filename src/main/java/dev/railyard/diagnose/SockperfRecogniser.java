package dev.railyard.diagnose;

import dev.railyard.bench.TextLines;
import dev.railyard.bench.ToolParseException;
import dev.railyard.bench.sockperf.SockperfParser;
import dev.railyard.bench.sockperf.SockperfResult;
import dev.railyard.model.CheckId;
import dev.railyard.model.Severity;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** sockperf client output: the latency or throughput summary, or the error that stopped it. */
public record SockperfRecogniser() implements Recogniser {

    @Override
    public ToolKind tool() {
        return ToolKind.SOCKPERF;
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
            return new ToolReading(List.of(Diagnosis.of(CheckId.BENCH_SOCKPERF.id(), Severity.FAIL, "sockperf run", e.reason(),
                    "start the server first (sockperf server -i ADDR --tcp) and use the same --tcp/UDP mode on both",
                    e.lineNumber(), e.line(), "sockperf")), Parsed.none());
        }
        return switch (result) {
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

    private static List<Measurement> latency(SockperfResult.PingPong p) {
        String unit = p.roundTrip() ? "µs round trip" : "µs one way";
        List<Measurement> out = new ArrayList<>(List.of(new Measurement("average", p.avgUs(), unit)));
        p.p50Us().ifPresent(v -> out.add(new Measurement("p50", v, unit)));
        p.p99Us().ifPresent(v -> out.add(new Measurement("p99", v, unit)));
        p.maxUs().ifPresent(v -> out.add(new Measurement("max", v, unit)));
        return out;
    }
}
