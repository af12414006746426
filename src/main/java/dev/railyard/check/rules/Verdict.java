package dev.railyard.check.rules;

import dev.railyard.model.CheckId;
import dev.railyard.model.Finding;
import dev.railyard.model.Severity;

/** A rule's judgement of one subject's facts: everything of a finding but the subject it is about. */
public record Verdict(CheckId id, Severity severity, String observed, String expected, String fix) {

    public Verdict {
        if (id == null || severity == null || observed == null || expected == null || fix == null) {
            throw new IllegalArgumentException("a verdict has no null fields: " + id);
        }
    }

    public Finding on(String subject) {
        return Finding.of(id.id(), severity, subject, observed, expected, fix);
    }

    /**
     * This verdict with the path's own account of the measurement in front of what the rule adds to it ("9.6 Gb/s"
     * and "matches a link negotiated at 10G"): rules that judge many pairs at once share one verdict per outcome and
     * leave the number to the path that measured it.
     */
    public Verdict measured(String measurement) {
        return new Verdict(id, severity, observed.isEmpty() ? measurement : measurement + "; " + observed, expected, fix);
    }

    public boolean passed() {
        return severity == Severity.PASS;
    }
}
