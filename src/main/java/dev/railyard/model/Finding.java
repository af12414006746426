package dev.railyard.model;

/**
 * The result of one check on one subject. {@code remediation} is the command (or file line) that fixes it,
 * empty when nothing needs fixing.
 */
public record Finding(
        String id,
        Severity severity,
        String subject,
        String observed,
        String expected,
        String remediation) {

    public static Finding pass(String id, String subject, String observed, String expected) {
        return new Finding(id, Severity.PASS, subject, observed, expected, "");
    }
}
