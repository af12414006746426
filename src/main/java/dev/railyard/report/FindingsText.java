package dev.railyard.report;

import dev.railyard.model.Finding;
import dev.railyard.model.NotJudged;
import dev.railyard.model.ValueText;
import dev.railyard.model.Severity;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Findings for people: one table per severity, worst first, each row followed by the command that fixes it
 * ("fix:") or, on a PASS, the command that uses what was found ("use:"); then what could not be judged, then a
 * one-line summary. Long observations wrap within the terminal's width; fix commands are never wrapped, so they
 * still paste as one line each.
 */
public final class FindingsText {

    static final List<Severity> ORDER = List.of(Severity.FAIL, Severity.WARN, Severity.UNKNOWN, Severity.INFO, Severity.PASS);
    private static final String FIX_INDENT = "      ";

    private FindingsText() {
    }

    public static String render(String node, List<Finding> findings) {
        return render(node, findings, List.of(), TextStyle.PLAIN);
    }

    public static String render(String node, List<Finding> findings, List<NotJudged> notJudged, TextStyle style) {
        return render(node, findings, notJudged, style, true);
    }

    /**
     * The findings but the PASS ones (a cluster's run has hundreds), titled with how many PASS were left out; the
     * summary line still counts them all.
     */
    public static String renderAllButPass(String subject, List<Finding> findings) {
        long pass = findings.stream().filter(f -> f.severity() == Severity.PASS).count();
        return render(subject + " (all but the " + pass + " PASS)", findings, List.of(), TextStyle.PLAIN, false);
    }

    private static String render(String node, List<Finding> findings, List<NotJudged> notJudged, TextStyle style,
                                 boolean withPass) {
        Map<Severity, List<Finding>> bySeverity = new EnumMap<>(Severity.class);
        for (Finding f : findings) bySeverity.computeIfAbsent(f.severity(), s -> new ArrayList<>()).add(f);
        StringBuilder out = new StringBuilder("Checks on ").append(ValueText.printable(node)).append('\n');
        for (Severity s : ORDER) {
            List<Finding> group = bySeverity.get(s);
            if (group == null || (s == Severity.PASS && !withPass)) continue;
            out.append('\n').append(style.paint(s + " (" + group.size() + ")", colour(s))).append('\n');
            appendGroup(out, group, s, style);
        }
        if (!notJudged.isEmpty()) {
            out.append('\n').append(style.paint("NOT JUDGED (" + notJudged.size() + ")", 35)).append('\n');
            int areaW = notJudged.stream().mapToInt(n -> n.area().length()).max().orElse(0);
            for (NotJudged n : notJudged) {
                String pad = " ".repeat(2 + areaW + 2);
                List<String> lines = Wrap.words(ValueText.printable(n.reason()), style.width() - pad.length());
                out.append("  ").append(n.area()).append(" ".repeat(areaW - n.area().length() + 2)).append(lines.getFirst()).append('\n');
                for (String l : lines.subList(1, lines.size())) out.append(pad).append(l).append('\n');
            }
        }
        out.append('\n').append(summary(findings));
        if (!notJudged.isEmpty()) {
            out.append("; not judged: ").append(notJudged.stream().map(NotJudged::area).distinct().collect(Collectors.joining(", ")));
        }
        out.append('\n');
        // findings quote what nodes report: no terminal escape sequence reaches the terminal raw (cells are escaped
        // one by one; the whole text too when no colour codes of our own are in it)
        return style.colour() ? out.toString() : ValueText.escapeControls(out.toString(), true);
    }

    /** The group's rows in shared columns, each row followed by its fix, a command per line. */
    private static void appendGroup(StringBuilder out, List<Finding> group, Severity s, TextStyle style) {
        TextTable table = new TextTable("ID", "SUBJECT", "OBSERVED", "EXPECTED");
        for (Finding f : group) {
            table.row(f.id(), ValueText.printable(f.subject()), ValueText.printable(f.observed()), ValueText.printable(f.expected()));
        }
        List<List<String>> rows = table.lines("  ", style.width());
        rows.getFirst().forEach(l -> out.append(l).append('\n'));
        for (int i = 0; i < group.size(); i++) {
            rows.get(i + 1).forEach(l -> out.append(l).append('\n'));
            Finding f = group.get(i);
            if (f.remediation().isEmpty()) continue;
            String label = s == Severity.PASS ? "use: " : "fix: ";
            String pad = FIX_INDENT + " ".repeat(label.length());
            boolean first = true;
            for (String cmd : f.remediation().lines().map(ValueText::printable).toList()) {
                // Comments wrap like prose; commands stay whole so they paste as one line.
                List<String> parts = !cmd.startsWith("# ") ? List.of(cmd)
                        : Wrap.words(cmd.substring(2), style.width() - pad.length() - 2).stream().map(p -> "# " + p).toList();
                for (String p : parts) {
                    out.append(first ? FIX_INDENT + label : pad).append(p).append('\n');
                    first = false;
                }
            }
        }
    }

    private static int colour(Severity s) {
        return switch (s) {
            case FAIL -> 31;
            case WARN -> 33;
            case UNKNOWN -> 35;
            case INFO -> 36;
            case PASS -> 32;
        };
    }

    /** "2 FAIL, 1 WARN, 0 UNKNOWN, 3 INFO, 20 PASS". */
    public static String summary(List<Finding> findings) {
        Map<Severity, Long> counts = findings.stream().collect(Collectors.groupingBy(Finding::severity, Collectors.counting()));
        return ORDER.stream().map(s -> counts.getOrDefault(s, 0L) + " " + s).collect(Collectors.joining(", "));
    }
}
