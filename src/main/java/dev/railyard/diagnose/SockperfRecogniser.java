package dev.railyard.diagnose;

import dev.railyard.bench.TextLines;
import dev.railyard.bench.ToolParseException;
import dev.railyard.bench.sockperf.SockperfParser;
import dev.railyard.bench.sockperf.SockperfResult;
import dev.railyard.model.Severity;

import java.util.List;

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
    public List<Diagnosis> diagnose(TextLines text) {
        try {
            return switch (new SockperfParser().parse(text.joined())) {
                case SockperfResult.PingPong p -> List.of(new Diagnosis(Severity.INFO, "sockperf latency",
                        String.format("average %.3f µs%s%s", p.avgUs(), p.roundTrip() ? " round trip" : "",
                                p.p99Us().isPresent() ? String.format(", p99 %.3f µs", p.p99Us().getAsDouble()) : ""),
                        "", 0, "", "sockperf"));
                case SockperfResult.Throughput t -> List.of(new Diagnosis(Severity.INFO, "sockperf throughput",
                        String.format("%.3f Gb/s (%d msg/s)", t.gbps(), t.messagesPerSecond()), "", 0, "",
                        "sockperf"));
            };
        } catch (ToolParseException e) {
            return List.of(new Diagnosis(Severity.FAIL, "sockperf run", e.reason(),
                    "start the server first (sockperf server -i ADDR --tcp) and use the same --tcp/UDP mode on both",
                    e.lineNumber(), e.line(), "sockperf"));
        }
    }
}
