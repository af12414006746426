package dev.railyard.diagnose;

import dev.railyard.bench.TextLines;
import dev.railyard.bench.ToolParseException;
import dev.railyard.bench.iperf3.Iperf3JsonParser;
import dev.railyard.bench.iperf3.Iperf3Result;
import dev.railyard.bench.iperf3.Iperf3TextParser;
import dev.railyard.model.CheckId;
import dev.railyard.model.Severity;

import java.util.ArrayList;
import java.util.List;

/** iperf3 output, JSON or text. A failed run (an "error", or no end summary) is a FAIL with iperf3's own words. */
public record Iperf3Recogniser(boolean json) implements Recogniser {

    @Override
    public ToolKind tool() {
        return json ? ToolKind.IPERF3_JSON : ToolKind.IPERF3_TEXT;
    }

    @Override
    public boolean recognises(TextLines text) {
        if (json) {
            return text.line(text.firstNonBlank()).strip().startsWith("{") && text.find("\"connecting_to\"") > 0;
        }
        return text.find("iperf Done.") > 0 || (text.find("[ ID] Interval") > 0 && text.find("bits/sec") > 0);
    }

    @Override
    public ToolReading read(TextLines text, DiagnoseTargets targets) {
        Iperf3Result r;
        try {
            r = json ? new Iperf3JsonParser().parse(text.joined()) : new Iperf3TextParser().parse(text.joined());
        } catch (ToolParseException e) {
            return new ToolReading(List.of(Diagnosis.of(CheckId.BENCH_IPERF3.id(), Severity.FAIL, "iperf3 run", e.reason(),
                    "check that the server (iperf3 -s -B ADDR) is running and reachable, then run again",
                    e.lineNumber(), e.line(), "iperf3")), Parsed.none());
        }
        List<Diagnosis> out = new ArrayList<>();
        out.add(Diagnosis.of(CheckId.BENCH_IPERF3.id(), Severity.INFO, "iperf3 bandwidth",
                String.format("sent %.2f Gb/s, received %.2f Gb/s over %.1f s (%d stream%s)", r.sentGbps(),
                        r.receivedGbps(), r.seconds(), r.streams(), r.streams() == 1 ? "" : "s"),
                "", 0, "", "iperf3"));
        if (r.retransmits().isPresent() && r.retransmits().getAsLong() > 0) {
            out.add(Diagnosis.of(CheckId.BENCH_IPERF3.id(), Severity.WARN, "iperf3 retransmits",
                    r.retransmits().getAsLong() + " TCP retransmits: packets were lost on the path",
                    "check MTU end to end (ip link show | grep mtu) and the interface error counters (ip -s link)",
                    0, "", "iperf3"));
        }
        List<Measurement> numbers = new ArrayList<>(List.of(
                new Measurement("sent", FioRecogniser.round(r.sentGbps()), "Gb/s"),
                new Measurement("received", FioRecogniser.round(r.receivedGbps()), "Gb/s"),
                new Measurement("duration", r.seconds(), "s"),
                new Measurement("streams", r.streams(), "streams")));
        r.retransmits().ifPresent(n -> numbers.add(new Measurement("retransmits", n, "segments")));
        return new ToolReading(out, Parsed.of(r, numbers));
    }
}
