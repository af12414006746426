package dev.railyard.bench.iperf3;

import dev.railyard.bench.TextLines;
import dev.railyard.bench.ToolParseException;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses iperf3's plain-text client output, as users paste it (seed 001 shows only the summary line). Lines after
 * the "- - -" separator, or labelled sender/receiver, are the summary; with neither, the last line is.
 */
public final class Iperf3TextParser {

    private static final String NUM = "\\d{1,12}(?:\\.\\d{1,12})?";
    private static final Pattern ROW = Pattern.compile(
            "^\\[\\s*(\\d+|SUM)]\\s+(" + NUM + ")-(" + NUM + ")\\s+sec\\s+(" + NUM + ")\\s+([KMGT]?)Bytes\\s+(" + NUM + ")\\s+([KMGT]?)bits/sec"
                    + "(?:\\s+(\\d+))?.*?(sender|receiver)?\\s*$");

    public Iperf3Result parse(String output) {
        TextLines text = TextLines.of(output);
        List<Iperf3Interval> intervals = new ArrayList<>();
        List<Iperf3Interval> summary = new ArrayList<>();
        Iperf3Interval sender = null, receiver = null;
        boolean afterSeparator = false;
        OptionalLong retr = OptionalLong.empty();
        for (int i = 1; i <= text.lines().size(); i++) {
            String line = text.line(i);
            if (line.startsWith("iperf3: error")) throw new ToolParseException(Iperf3JsonParser.TOOL, i, line, "iperf3 reported an error");
            if (line.startsWith("- - -")) afterSeparator = true;
            Matcher m = ROW.matcher(line);
            if (!m.find()) continue;
            double gbps = Double.parseDouble(m.group(6)) * scale(m.group(7)) / 1e9;
            long bytes = (long) (Double.parseDouble(m.group(4)) * Math.pow(1024, "KMGT".indexOf(m.group(5)) + 1.0));
            long r = m.group(8) == null ? 0 : parseRetr(m.group(8));
            Iperf3Interval row = new Iperf3Interval(Double.parseDouble(m.group(2)), Double.parseDouble(m.group(3)),
                    gbps, bytes, r, line.contains("(omitted)"));
            if ("receiver".equals(m.group(9))) {
                receiver = row;
            } else if ("sender".equals(m.group(9)) || afterSeparator) {
                sender = row;
                if (m.group(8) != null) retr = OptionalLong.of(r);
            } else {
                intervals.add(row);
            }
            summary.add(row);
        }
        if (summary.isEmpty()) {
            int n = text.firstNonBlank();
            throw new ToolParseException(Iperf3JsonParser.TOOL, n, text.line(n), "no iperf3 result rows");
        }
        if (sender == null) {
            sender = intervals.removeLast();
            retr = OptionalLong.of(sender.retransmits());
        }
        Iperf3Interval recv = receiver == null ? sender : receiver;
        return new Iperf3Result("", "TCP", 1, intervals, sender.gbps(), recv.gbps(), sender.bytes(), recv.bytes(),
                sender.endSeconds() - sender.startSeconds(), retr);
    }

    private static double scale(String prefix) {
        return Math.pow(1000, "KMGT".indexOf(prefix) + 1.0);
    }

    private static long parseRetr(String s) {
        return s.length() > 18 ? Long.MAX_VALUE : Long.parseLong(s);
    }
}
