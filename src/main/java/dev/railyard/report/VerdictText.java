package dev.railyard.report;

import dev.railyard.model.Finding;
import dev.railyard.model.Severity;

import java.util.List;
import java.util.regex.Pattern;

/** Bench verdicts for people: one block per finding, whole (no clipping: a benchmark has few), and argv quoting. */
public final class VerdictText {

    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_./:=,+@%-]+");

    private VerdictText() {
    }

    public static String render(List<Finding> findings) {
        StringBuilder sb = new StringBuilder();
        for (Finding f : findings) {
            sb.append(String.format("%-7s %s  %s%n", f.severity(), f.id(), f.subject()));
            sb.append("        observed: ").append(f.observed()).append('\n');
            sb.append("        expected: ").append(f.expected()).append('\n');
            if (!f.remediation().isEmpty()) {
                // one command a line, each under the first, so the block pastes as it is
                sb.append("        ").append(f.severity() == Severity.PASS ? "use: " : "fix: ")
                        .append(f.remediation().replace("\n", "\n             ")).append('\n');
            }
        }
        return sb.toString();
    }


    /** The argv as a line a POSIX shell reads back to the same words, so users can copy it. */
    public static String shellLine(List<String> argv) {
        StringBuilder sb = new StringBuilder();
        for (String a : argv) {
            if (!sb.isEmpty()) sb.append(' ');
            sb.append(PLAIN.matcher(a).matches() ? a : "'" + a.replace("'", "'\\''") + "'");
        }
        return sb.toString();
    }
}
