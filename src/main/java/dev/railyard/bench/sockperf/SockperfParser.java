package dev.railyard.bench.sockperf;

import dev.railyard.bench.TextLines;
import dev.railyard.bench.ToolParseException;

import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses a sockperf client's summary (ping-pong, under-load or throughput). Colour codes, a byte-order mark, VMA
 * banners and --full-log CSV rows are skipped; an error line ("### ERROR:" or "sockperf: ERROR") fails the parse
 * with that line, because a summary printed after it is not trustworthy.
 */
public final class SockperfParser {

    static final String TOOL = "sockperf";
    private static final String NUM = "([0-9]+(?:\\.[0-9]+)?)";
    private static final Pattern AVG = Pattern.compile("====> avg-(lat|latency|rtt)=\\s*" + NUM + "\\s*\\(std-dev=\\s*" + NUM);
    private static final Pattern OBSERVATIONS = Pattern.compile("Total ([0-9]+) observations");
    private static final Pattern PERCENTILE = Pattern.compile("---> percentile\\s+" + NUM + "\\s*=\\s*" + NUM);
    private static final Pattern EXTREME = Pattern.compile("---> <(MAX|MIN)> observation\\s*=\\s*" + NUM);
    private static final Pattern SENT = Pattern.compile("Total of ([0-9]+) messages sent in " + NUM + " sec");
    private static final Pattern RATE = Pattern.compile("Summary: Message Rate is ([0-9]+) \\[msg/sec\\]");
    private static final Pattern BANDWIDTH = Pattern.compile("Summary: BandWidth is " + NUM + " MBps \\(" + NUM + " Mbps\\)");
    private static final Pattern ERROR = Pattern.compile("^(?:sockperf:\\s*)?(?:#+\\s*)?ERROR\\b");

    public SockperfResult parse(String output) {
        TextLines text = TextLines.of(output);
        Double avg = null;
        double stdDev = 0;
        boolean roundTrip = false;
        Long observations = null;
        Double min = null, max = null, p50 = null, p99 = null, p999 = null;
        Long sent = null, rate = null;
        double seconds = 0;
        Double mbytes = null, mbits = null;
        for (int i = 1; i <= text.lines().size(); i++) {
            String line = text.line(i);
            if (ERROR.matcher(line.strip()).find()) {
                throw new ToolParseException(TOOL, i, line, "sockperf reported an error");
            }
            Matcher m;
            if ((m = AVG.matcher(line)).find()) {
                roundTrip = m.group(1).equals("rtt");
                avg = decimal(m.group(2), i, line);
                stdDev = decimal(m.group(3), i, line);
            } else if ((m = OBSERVATIONS.matcher(line)).find()) {
                observations = integer(m.group(1), i, line);
            } else if ((m = PERCENTILE.matcher(line)).find()) {
                double value = decimal(m.group(2), i, line);
                switch (m.group(1)) {
                    case "50.000" -> p50 = value;
                    case "99.000" -> p99 = value;
                    case "99.900" -> p999 = value;
                    default -> { /* the other percentiles are not part of the result */ }
                }
            } else if ((m = EXTREME.matcher(line)).find()) {
                if (m.group(1).equals("MAX")) max = decimal(m.group(2), i, line);
                else min = decimal(m.group(2), i, line);
            } else if ((m = SENT.matcher(line)).find()) {
                sent = integer(m.group(1), i, line);
                seconds = decimal(m.group(2), i, line);
            } else if ((m = RATE.matcher(line)).find()) {
                rate = integer(m.group(1), i, line);
            } else if ((m = BANDWIDTH.matcher(line)).find()) {
                mbytes = decimal(m.group(1), i, line);
                mbits = decimal(m.group(2), i, line);
            }
        }
        if (avg != null) {
            return new SockperfResult.PingPong(avg, stdDev, roundTrip,
                    observations == null ? OptionalLong.empty() : OptionalLong.of(observations),
                    opt(min), opt(p50), opt(p99), opt(p999), opt(max));
        }
        if (mbytes != null) {
            return new SockperfResult.Throughput(sent == null ? 0 : sent, seconds, rate == null ? 0 : rate,
                    mbytes, mbits / 1000.0);
        }
        int last = text.lines().size();
        throw new ToolParseException(TOOL, last, text.line(last),
                "no latency (\"avg-lat\") or throughput (\"BandWidth\") summary: the run did not finish");
    }

    private static OptionalDouble opt(Double v) {
        return v == null ? OptionalDouble.empty() : OptionalDouble.of(v);
    }

    private static double decimal(String s, int n, String line) {
        double v = Double.parseDouble(s);
        if (!Double.isFinite(v)) throw new ToolParseException(TOOL, n, line, "number out of range: " + s);
        return v;
    }

    private static long integer(String s, int n, String line) {
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw new ToolParseException(TOOL, n, line, "number out of range: " + s);
        }
    }
}
