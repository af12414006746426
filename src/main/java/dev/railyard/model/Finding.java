package dev.railyard.model;

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
}
