package dev.railyard.cluster;

import java.time.Duration;
import java.util.Optional;

/**
 * The long parts of a validate run, in the order acceptance tests take them: {@code burn} loads every GPU of every
 * node for that long before any fabric test (nodes, then fabric), {@code soak} repeats the fabric's traffic for that
 * long after the benchmarks and compares every port's error counters before and after.
 */
public record Endurance(Optional<Duration> burn, Optional<Duration> soak) {

    public Endurance {
        burn.ifPresent(d -> positive("--burn", d));
        soak.ifPresent(d -> positive("--soak", d));
    }

    public static Endurance none() {
        return new Endurance(Optional.empty(), Optional.empty());
    }

    private static void positive(String option, Duration d) {
        if (d.isZero() || d.isNegative()) throw new IllegalArgumentException(option + " must be positive, got " + d);
    }
}
