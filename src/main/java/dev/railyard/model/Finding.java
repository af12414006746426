package dev.railyard.model;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The result of one check on one subject. {@code remediation} is the command (or file line) that fixes it; on a
 * PASS it may carry the command to use what was found (the GID index for ib_write_bw), empty when nothing applies.
 */
public record Finding(
        String id,
        Severity severity,
        String subject,
        String observed,
        String expected,
        String remediation) {

    public Finding {
        if (id == null || severity == null || subject == null || observed == null || expected == null
                || remediation == null) {
            throw new IllegalArgumentException("a finding has no null fields: " + id);
        }
    }

    public static Finding pass(String id, String subject, String observed, String expected) {
        return new Finding(id, Severity.PASS, subject, observed, expected, "");
    }

    public static Finding of(String id, Severity severity, String subject, String observed, String expected,
                             String remediation) {
        return new Finding(id, severity, subject, observed, expected, remediation);
    }

    /** The reading needed to judge was absent or failed: say which and why, never a silent PASS. */
    public static Finding unknown(String id, String subject, Reading<?> reading, String expected) {
        return new Finding(id, Severity.UNKNOWN, subject, reading.describe(), expected, "");
    }

    /**
     * One finding per (check, subject), in first-seen order: two judges that reach one subject (a carrier-change
     * detector and the kernel log's "Link down") make one finding with the worse severity and both pieces of
     * evidence. /metrics keys a series on (check, subject), and one duplicate would make the exposition invalid.
     */
    public static List<Finding> merged(List<Finding> findings) {
        Map<List<String>, Finding> byKey = new LinkedHashMap<>();
        for (Finding f : findings) byKey.merge(List.of(f.id(), f.subject()), f, Finding::mergedWith);
        return new ArrayList<>(byKey.values());
    }

    /** This finding and another of the same check and subject as one: the worse leads, the other's evidence follows. */
    public Finding mergedWith(Finding other) {
        if (!id.equals(other.id) || !subject.equals(other.subject)) {
            throw new IllegalArgumentException("only findings of one check and subject merge: " + id + " " + subject
                    + ", " + other.id + " " + other.subject);
        }
        Finding lead = other.severity.atLeast(severity) && other.severity != severity ? other : this;
        Finding rest = lead == this ? other : this;
        return new Finding(id, lead.severity, subject, joined(lead.observed, rest.observed, "; "),
                joined(lead.expected, rest.expected, "; "), joinedLines(lead.remediation, rest.remediation));
    }

    private static String joined(String a, String b, String separator) {
        if (b.isEmpty() || a.equals(b)) return a;
        return a.isEmpty() ? b : a + separator + b;
    }

    /** The lead's fix, then the other's lines it does not already have (two fixes often share their first command). */
    private static String joinedLines(String a, String b) {
        if (b.isEmpty() || a.equals(b)) return a;
        if (a.isEmpty()) return b;
        List<String> lines = new ArrayList<>(a.lines().toList());
        b.lines().filter(l -> !lines.contains(l)).forEach(lines::add);
        return String.join("\n", lines);
    }
}
