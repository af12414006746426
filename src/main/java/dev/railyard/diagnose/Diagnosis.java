package dev.railyard.diagnose;

import dev.railyard.check.rules.Verdict;
import dev.railyard.model.Finding;
import dev.railyard.model.Severity;

/**
 * One verdict on a tool's output: the finding (what is wrong or fine, and the fix) and the evidence for it.
 * lineNumber (1-based, 0 = the whole output) and line point at the evidence; source says which rule, seed or
 * parser it comes from.
 */
public record Diagnosis(Finding finding, int lineNumber, String line, String source) {

    /** The source of a verdict that only repeats a tool's own error line; a catalog rule on it knows more. */
    public static final String ECHO = "the tool's own error line";

    public Diagnosis {
        line = line.strip();
    }

    public static Diagnosis of(String id, Severity severity, String subject, String cause, String fix,
                               int lineNumber, String line, String source) {
        return new Diagnosis(new Finding(id, severity, subject, cause, "", fix), lineNumber, line, source);
    }

    /** A rule's verdict on a paste, said as a diagnosis says it: the cause and the fix, no expected line. */
    public static Diagnosis of(Verdict v, String subject, int lineNumber, String line, String source) {
        return of(v.id().id(), v.severity(), subject, v.observed(), v.fix(), lineNumber, line, source);
    }

    public Severity severity() {
        return finding.severity();
    }

    public String subject() {
        return finding.subject();
    }

    public String cause() {
        return finding.observed();
    }

    public String fix() {
        return finding.remediation();
    }
}
