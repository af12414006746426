package dev.railyard.bench.perftest;

import dev.railyard.model.BwRow;
import dev.railyard.model.LatencyRow;

import dev.railyard.bench.ToolParseException;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The "#bytes #iterations ..." line of a perftest table, read into its columns so rows are read by name:
 * perftest versions differ in which columns they print (MsgRate, min/max/percentiles).
 */
record PerftestTableHeader(Kind kind, List<String> columns, BwRow.BwUnit unit) {

    enum Kind { BANDWIDTH, LATENCY }

    private static final Pattern LEAD = Pattern.compile("^#bytes\\s+#iterations\\s*(.*)$");
    private static final Pattern COLUMN = Pattern.compile("\\s*([^\\[\\]]+?)\\[([^\\[\\]]*)]");

    static boolean looksLikeOne(String trimmed) {
        return trimmed.startsWith("#bytes");
    }

    static PerftestTableHeader parse(String trimmed, int lineNumber, String line) {
        Matcher lead = LEAD.matcher(trimmed);
        if (!lead.matches()) throw bad(lineNumber, line, "a table header must start with #bytes #iterations");
        String rest = lead.group(1).strip();
        List<String> names = new ArrayList<>();
        List<String> units = new ArrayList<>();
        Matcher m = COLUMN.matcher(rest);
        int end = 0;
        while (m.find() && m.start() == end) {
            names.add(m.group(1).strip());
            units.add(m.group(2));
            end = m.end();
        }
        if (!rest.substring(end).isBlank()) throw bad(lineNumber, line, "unreadable column after \"" + rest.substring(0, end) + "\"");
        if (names.contains("BW peak") && names.contains("BW average")) {
            String u = units.get(names.indexOf("BW average"));
            BwRow.BwUnit unit = switch (u) {
                case "MB/sec" -> BwRow.BwUnit.MIB_PER_SEC;
                case "Gb/sec" -> BwRow.BwUnit.GBIT_PER_SEC;
                default -> throw bad(lineNumber, line, "unknown bandwidth unit " + u);
            };
            return new PerftestTableHeader(Kind.BANDWIDTH, names, unit);
        }
        if (names.stream().anyMatch(n -> n.startsWith("t_"))) {
            if (!units.stream().allMatch(u -> u.equals("usec"))) throw bad(lineNumber, line, "latency columns not in usec");
            return new PerftestTableHeader(Kind.LATENCY, names, BwRow.BwUnit.MIB_PER_SEC);
        }
        throw bad(lineNumber, line, "neither a bandwidth nor a latency table");
    }

    BwRow bandwidthRow(String trimmed, int lineNumber, String line) {
        double[] v = values(trimmed, lineNumber, line);
        return new BwRow((long) v[0], (long) v[1], value(v, "BW peak").orElseThrow(),
                value(v, "BW average").orElseThrow(), value(v, "MsgRate"), unit);
    }

    LatencyRow latencyRow(String trimmed, int lineNumber, String line) {
        double[] v = values(trimmed, lineNumber, line);
        return new LatencyRow((long) v[0], (long) v[1], value(v, "t_min"), value(v, "t_max"), value(v, "t_typical"),
                value(v, "t_avg"), value(v, "t_stdev"), value(v, "99% percentile"), value(v, "99.9% percentile"));
    }

    /** bytes, iterations, then one value per column (whole numbers up to 15 digits are exact as doubles). */
    private double[] values(String trimmed, int lineNumber, String line) {
        String[] tok = trimmed.split("\\s+");
        if (tok.length != columns.size() + 2) {
            throw bad(lineNumber, line, "expected " + (columns.size() + 2) + " columns, found " + tok.length);
        }
        double[] v = new double[tok.length];
        v[0] = parseLong(tok[0], lineNumber, line);
        v[1] = parseLong(tok[1], lineNumber, line);
        for (int i = 2; i < v.length; i++) v[i] = parseDouble(tok[i], lineNumber, line);
        return v;
    }

    private OptionalDouble value(double[] v, String name) {
        int i = columns.indexOf(name);
        return i < 0 ? OptionalDouble.empty() : OptionalDouble.of(v[i + 2]);
    }

    private static long parseLong(String s, int lineNumber, String line) {
        if (!s.matches("\\d{1,15}")) throw bad(lineNumber, line, "not a whole number: " + s);
        return Long.parseLong(s);
    }

    private static double parseDouble(String s, int lineNumber, String line) {
        if (!s.matches("\\d+(\\.\\d+)?")) throw bad(lineNumber, line, "not a number: " + s);
        return Double.parseDouble(s);
    }

    static ToolParseException bad(int lineNumber, String line, String reason) {
        return new ToolParseException("perftest", lineNumber, line, reason);
    }
}
