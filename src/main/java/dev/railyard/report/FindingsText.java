package dev.railyard.report;

import dev.railyard.model.Finding;
import dev.railyard.model.ValueText;
import dev.railyard.model.Severity;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Findings for people: one table per severity, worst first, each row followed by the command that fixes it
 * ("fix:") or, on a PASS, the command that uses what was found ("use:"), then a one-line summary.
 */
public final class FindingsText {

    private static final List<Severity> ORDER = List.of(Severity.FAIL, Severity.WARN, Severity.UNKNOWN, Severity.INFO, Severity.PASS);
    private static final int OBSERVED_WIDTH = 48;

    private FindingsText() {
    }

    public static String render(String node, List<Finding> findings) {
        Map<Severity, List<Finding>> bySeverity = new EnumMap<>(Severity.class);
        for (Finding f : findings) bySeverity.computeIfAbsent(f.severity(), s -> new ArrayList<>()).add(f);
        StringBuilder out = new StringBuilder("Checks on ").append(ValueText.printable(node)).append('\n');
        for (Severity s : ORDER) {
            List<Finding> group = bySeverity.get(s);
            if (group == null) continue;
            out.append('\n').append(s).append(" (").append(group.size()).append(")\n");
            int idW = Math.max(2, group.stream().mapToInt(f -> f.id().length()).max().orElse(0));
            int subW = Math.max(7, group.stream().mapToInt(f -> ValueText.printable(f.subject()).length()).max().orElse(0));
            String fmt = "  %-" + idW + "s  %-" + subW + "s  %-" + OBSERVED_WIDTH + "s  %s%n";
            out.append(String.format(fmt, "ID", "SUBJECT", "OBSERVED", "EXPECTED"));
            for (Finding f : group) {
                out.append(String.format(fmt, f.id(), ValueText.printable(f.subject()), clip(ValueText.printable(f.observed())),
                        ValueText.printable(f.expected())));
                if (!f.remediation().isEmpty()) {
                    out.append("      ").append(s == Severity.PASS ? "use: " : "fix: ")
                            .append(ValueText.printable(f.remediation())).append('\n');
                }
            }
        }
        out.append('\n').append(summary(findings)).append('\n');
        // findings quote what nodes report: no terminal escape sequence reaches the terminal raw
        return ValueText.escapeControls(out.toString(), true);
    }

    /** "2 FAIL, 1 WARN, 0 UNKNOWN, 3 INFO, 20 PASS". */
    public static String summary(List<Finding> findings) {
        Map<Severity, Long> counts = findings.stream().collect(Collectors.groupingBy(Finding::severity, Collectors.counting()));
        return ORDER.stream().map(s -> counts.getOrDefault(s, 0L) + " " + s).collect(Collectors.joining(", "));
    }

    /** Long observations (Xid messages) are cut so the table stays readable; JSON and JUnit keep them whole. */
    private static String clip(String s) {
        return s.length() <= OBSERVED_WIDTH ? s : s.substring(0, OBSERVED_WIDTH - 3) + "...";
    }
}
