package dev.railyard.bench.iperf3;

import dev.railyard.bench.TextLines;
import dev.railyard.bench.ToolParseException;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses iperf3's plain-text output as users paste it: client or server side, TCP (Retr column) or UDP (jitter and
 * Lost/Total), one stream or [SUM] rows, --bidir role columns ([TX-C], [RX-S]), and the summary only (what people paste).
 * Lines after the "- - -" separator, or labelled sender/receiver, are the summary. Without one, the run was cut
 * short and the median interval stands for the rate: the last interval is whatever it was when the paste ended.
 */
public final class Iperf3TextParser {

    private static final String NUM = "\\d{1,15}(?:\\.\\d{1,12})?";
    private static final Pattern ROW = Pattern.compile(
            "^\\[\\s*(\\d{1,6}|SUM)](?:\\[([A-Z]{2}-[CS])])?\\s+(" + NUM + ")\\s*-\\s*(" + NUM + ")\\s*sec\\s+(" + NUM
                    + ")\\s+([KMGT]?)Bytes\\s+(" + NUM + ")\\s+([KMGT]?)bits/sec(.*)$");
    private static final Pattern RETR = Pattern.compile("^\\s+(\\d{1,18})(?:\\s|$)");
    private static final Pattern UDP = Pattern.compile("(" + NUM + ")\\s*ms\\s+(-?\\d{1,18})/(\\d{1,18})\\s*\\(([^)%]*)%?\\)");
    private static final Pattern ROLE_LABEL = Pattern.compile("\\b(sender|receiver)\\s*$");

    public Iperf3Result parse(String output) {
        return read(TextLines.of(output)).result();
    }

    private record Row(int line, String id, String role, Iperf3Interval interval, OptionalLong retr,
                       long lost, long total, boolean udp, String label) {}

    public Iperf3TextReport read(TextLines text) {
        List<Row> intervals = new ArrayList<>();
        List<Row> summary = new ArrayList<>();
        boolean afterSeparator = false, serverSide = false;
        for (int i = 1; i <= text.lines().size(); i++) {
            String line = text.line(i).strip();
            if (line.startsWith("iperf3: error") || line.startsWith("iperf3: interrupt")) {
                if (line.startsWith("iperf3: error")) {
                    String words = line.substring("iperf3: error".length()).replaceFirst("^\\s*-\\s*", "");
                    throw new ToolParseException(Iperf3JsonParser.TOOL, i, line, "iperf3 reported an error"
                            + (words.isEmpty() ? "" : ": " + words));
                }
                continue;
            }
            if (line.startsWith("- - -") || line.contains("Summary Results")) afterSeparator = true;
            if (line.startsWith("Accepted connection from") || line.startsWith("Server listening on")) {
                serverSide = true;
                if (line.startsWith("Server listening") && !intervals.isEmpty()) afterSeparator = false;
            }
            Matcher m = ROW.matcher(line);
            if (!m.find()) continue;
            Row row = row(m, i, line);
            if (!row.label().isEmpty() || afterSeparator) summary.add(row);
            else intervals.add(row);
        }
        if (intervals.isEmpty() && summary.isEmpty()) {
            int n = text.firstNonBlank();
            throw new ToolParseException(Iperf3JsonParser.TOOL, n, text.line(n), "no iperf3 result rows");
        }
        return report(intervals, summary, serverSide);
    }

    private static Row row(Matcher m, int n, String line) {
        double gbps = Double.parseDouble(m.group(7)) * Math.pow(1000, "KMGT".indexOf(m.group(8)) + 1.0) / 1e9;
        long bytes = (long) Math.min(Long.MAX_VALUE,
                Double.parseDouble(m.group(5)) * Math.pow(1024, "KMGT".indexOf(m.group(6)) + 1.0));
        String tail = m.group(9);
        Matcher u = UDP.matcher(tail);
        boolean udp = u.find();
        long lost = udp ? parseLong(u.group(2)) : 0, total = udp ? parseLong(u.group(3)) : 0;
        Matcher r = RETR.matcher(tail);
        OptionalLong retr = !udp && r.find() ? OptionalLong.of(parseLong(r.group(1))) : OptionalLong.empty();
        Matcher label = ROLE_LABEL.matcher(tail);
        String role = m.group(2) == null ? "" : m.group(2);
        Iperf3Interval interval = new Iperf3Interval(Double.parseDouble(m.group(3)), Double.parseDouble(m.group(4)),
                gbps, bytes, retr.orElse(0), line.contains("(omitted)"));
        return new Row(n, m.group(1), role, interval, retr, lost, total, udp, label.find() ? label.group(1) : "");
    }

    private static Iperf3TextReport report(List<Row> intervals, List<Row> summary, boolean serverSide) {
        // With several streams, the [SUM] rows are the totals; the per-stream rows only repeat them in parts.
        boolean sums = intervals.stream().anyMatch(r -> r.id().equals("SUM"))
                || summary.stream().anyMatch(r -> r.id().equals("SUM"));
        List<Row> iv = new ArrayList<>(intervals.stream().filter(r -> !sums || r.id().equals("SUM")).toList());
        List<Row> sm = new ArrayList<>(summary.stream().filter(r -> !sums || r.id().equals("SUM")).toList());
        if (sm.isEmpty() && spansTheRun(iv)) sm.add(iv.removeLast()); // a paste of the summary line alone
        Row sender = last(sm, "sender", "TX"), receiver = last(sm, "receiver", "RX");
        if (sender == null && receiver == null && !sm.isEmpty()) sender = sm.getLast();
        boolean hasSummary = sender != null || receiver != null;
        // an old server's summary is a "sender" row of 0 bits/s (and a receiver row the paste may have cut)
        if (serverSide && receiver == null && sender != null && sender.interval().gbps() == 0
                && iv.stream().anyMatch(r -> r.interval().gbps() > 0)) {
            hasSummary = false;
            sender = null;
        }
        boolean udp = iv.stream().anyMatch(Row::udp) || sm.stream().anyMatch(Row::udp);

        double sentGbps, recvGbps, seconds;
        long sentBytes, recvBytes;
        OptionalLong retr = OptionalLong.empty();
        if (hasSummary) {
            Row s = sender != null ? sender : receiver, r = receiver != null ? receiver : sender;
            // a server's "sender" row counts nothing in iperf3 before 3.1; its receiver row is the result
            if (serverSide && receiver != null && s.interval().gbps() == 0) s = receiver;
            sentGbps = s.interval().gbps();
            recvGbps = r.interval().gbps();
            sentBytes = s.interval().bytes();
            recvBytes = r.interval().bytes();
            seconds = s.interval().endSeconds() - s.interval().startSeconds();
            retr = s.retr();
        } else {
            double median = median(iv.stream().filter(r -> !r.interval().omitted()).map(r -> r.interval().gbps())
                    .toList());
            sentGbps = recvGbps = median;
            sentBytes = recvBytes = iv.stream().mapToLong(r -> r.interval().bytes()).sum();
            seconds = iv.isEmpty() ? 0 : iv.getLast().interval().endSeconds() - iv.getFirst().interval().startSeconds();
        }

        Row lossRow = udp ? lossRow(receiver, sender, sm) : null;
        long lost, total;
        int lossLine;
        if (lossRow != null) {
            lost = lossRow.lost();
            total = lossRow.total();
            lossLine = lossRow.line();
        } else {
            lost = iv.stream().mapToLong(Row::lost).sum();
            total = iv.stream().mapToLong(Row::total).sum();
            lossLine = iv.stream().filter(r -> r.lost() > 0).findFirst().map(Row::line).orElse(0);
        }
        OptionalDouble loss = udp && total > 0 ? OptionalDouble.of(100.0 * Math.max(lost, 0) / total)
                : OptionalDouble.empty();
        List<Row> zero = iv.stream().filter(r -> !r.interval().omitted() && r.interval().gbps() == 0
                && r.interval().endSeconds() > r.interval().startSeconds()).toList();
        Iperf3Result result = new Iperf3Result("", udp ? "UDP" : "TCP", 1,
                iv.stream().map(Row::interval).toList(), sentGbps, recvGbps, sentBytes, recvBytes, seconds, retr);
        return new Iperf3TextReport(result, hasSummary, serverSide, loss, lost, total, lossLine, zero.size(),
                zero.isEmpty() ? 0 : zero.getFirst().line());
    }

    /** A last row from 0 s that is longer than the first: the summary line, pasted without its separator. */
    private static boolean spansTheRun(List<Row> rows) {
        if (rows.isEmpty()) return false;
        Iperf3Interval last = rows.getLast().interval(), first = rows.getFirst().interval();
        double length = last.endSeconds() - last.startSeconds();
        return last.startSeconds() == 0 && (rows.size() == 1 || length > 1.5 * (first.endSeconds() - first.startSeconds()));
    }

    /** True for a line that is an iperf3 (or iperf 2) result row, decorations already removed. */
    public static boolean isRow(String line) {
        return ROW.matcher(line.strip()).find();
    }

    /** The summary row that counts lost datagrams: the receiver's, else the one summary line old versions print. */
    private static Row lossRow(Row receiver, Row sender, List<Row> summary) {
        if (receiver != null && receiver.udp()) return receiver;
        for (int i = summary.size() - 1; i >= 0; i--) {
            if (summary.get(i).udp() && summary.get(i).total() > 0) return summary.get(i);
        }
        return sender != null && sender.udp() ? sender : null;
    }

    private static Row last(List<Row> rows, String label, String rolePrefix) {
        Row found = null;
        for (Row r : rows) {
            if (r.label().equals(label) || (r.label().isEmpty() && r.role().startsWith(rolePrefix))) found = r;
        }
        return found;
    }

    private static double median(List<Double> values) {
        if (values.isEmpty()) return 0;
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    private static long parseLong(String s) {
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            return Long.MAX_VALUE;
        }
    }
}
