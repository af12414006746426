package dev.railyard.model;

import java.time.Duration;
import java.time.Instant;

/**
 * One pair test as run: in which round of the schedule, which attempt (2 is the retest of a pair below expect),
 * what it gave and when.
 */
public record PairResult(PairTest test, int round, int attempt, PairOutcome outcome, Instant startedAt,
                         Duration elapsed) {
}
