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

    public boolean passed() {
        return severity == Severity.PASS;
    }
}
