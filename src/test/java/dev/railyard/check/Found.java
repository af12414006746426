package dev.railyard.check;

import dev.railyard.model.Finding;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Picks findings out of a check's result by ID and subject, failing loudly when the expected one is missing. */
final class Found {
    private Found() {
    }

    static Finding one(List<Finding> findings, String id, String subject) {
        List<Finding> matches = findings.stream().filter(f -> f.id().equals(id) && f.subject().equals(subject)).toList();
        assertThat(matches).as("one %s on %s in %s", id, subject, findings).hasSize(1);
        return matches.getFirst();
    }
}
