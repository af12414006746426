package dev.railyard.store;

import dev.railyard.model.Severity;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * One stored run as `railyard history` lists it. A run without an end (killed, crashed, still going) is incomplete
 * and has no verdict: what it measured is stored, but it cannot pass. {@code nodes} counts the nodes that completed
 * (of {@code nodesPlanned} in the run), {@code pairs} each pair tested once (of {@code pairTests} tests, retests
 * included).
 */
public record RunSummary(String id, String cluster, String launcher, Instant startedAt, Optional<Instant> finishedAt,
                         int nodes, int nodesPlanned, int pairs, int pairTests, Optional<Severity> verdict) {

    public boolean complete() {
        return finishedAt.isPresent();
    }

    public Optional<Duration> duration() {
        return finishedAt.map(f -> Duration.between(startedAt, f));
    }
}
