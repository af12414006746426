package dev.railyard.diagnose;

import dev.railyard.bench.TextLines;
import dev.railyard.bench.ToolParseException;
import dev.railyard.bench.iperf3.Iperf3JsonParser;
import dev.railyard.bench.iperf3.Iperf3Result;
import dev.railyard.bench.iperf3.Iperf3TextParser;
import dev.railyard.bench.iperf3.Iperf3TextReport;
import dev.railyard.model.CheckId;
import dev.railyard.model.Severity;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

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
        return json ? List.of("\"connecting_to\"") : List.of("bits/sec", "iperf Done.");
    }

    @Override
    public boolean recognises(TextLines text) {
        if (json) {
            return text.line(text.firstNonBlank()).strip().startsWith("{") && text.find("\"connecting_to\"") > 0;
        }
        return text.find("iperf Done.") > 0 || text.lines().stream().anyMatch(l -> l.contains("bits/sec") && Iperf3TextParser.isRow(l));
    }

    @Override
    public ToolReading read(TextLines text, DiagnoseTargets targets) {
        Iperf3TextReport report;
        try {
            report = json ? plain(new Iperf3JsonParser().parse(text.joined())) : new Iperf3TextParser().read(text);
        } catch (ToolParseException e) {
            return new ToolReading(List.of(Diagnosis.of(CheckId.BENCH_IPERF3.id(), Severity.FAIL, "iperf3 run", e.reason(),
                    "check that the server (iperf3 -s -B ADDR) is running and reachable, then run again",
                    e.lineNumber(), e.line(), "iperf3")), Parsed.none());
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
                report.summary() ? "" : "keep the output to the end: the sender/receiver lines after \"- - -\"",
                0, "", "iperf3"));
        stall(text, report).ifPresent(out::add);
        report.lossPercent().ifPresent(loss -> {
            if (loss < 1) return;
            out.add(Diagnosis.of(CheckId.BENCH_IPERF3.id(), loss >= 10 ? Severity.FAIL : Severity.WARN, "iperf3 UDP loss",
                    String.format(Locale.ROOT, "%s%% of UDP datagrams lost (%d of %d)", pct(loss),
                            report.lostDatagrams(), report.totalDatagrams()),
                    "send at a rate the path carries (-b below the link rate), raise the receive buffer "
                            + "(sysctl net.core.rmem_max, iperf3 -w), and check 'ip -s link' drops on both ends",
                    report.lossLine(), text.line(report.lossLine()), "iperf3"));
        });
        if (r.retransmits().isPresent() && r.retransmits().getAsLong() > 0 && r.sentBytes() > 0
                && r.retransmits().getAsLong() > 0.001 * r.sentBytes() / SEGMENT_BYTES) {
            out.add(Diagnosis.of(CheckId.BENCH_IPERF3.id(), Severity.WARN, "iperf3 retransmits",
                    r.retransmits().getAsLong() + " TCP retransmits (over 0.1 % of the segments sent): packets were "
                            + "lost on the path",
                    "check MTU end to end (ip link show | grep mtu) and the interface error counters (ip -s link)",
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
                "a stall with retransmits is loss on the path (MTU mismatch, a flapping link, a full queue): check "
                        + "'ip -s link' and the switch port; a stall without them is the receiver not reading",
                report.firstZeroLine(), text.line(report.firstZeroLine()), "iperf3"));
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
