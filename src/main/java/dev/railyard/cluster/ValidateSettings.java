package dev.railyard.cluster;

import java.time.Duration;

/**
 * How thorough and how wide a validate run is. {@code full} adds TCP latency pairs, storage per node and longer
 * tests; {@code maxParallel} bounds the remote steps in flight; {@code stepTimeout} is each step's limit.
 */
public record ValidateSettings(boolean full, int maxParallel, Duration stepTimeout, Duration tcpDuration,
                               Duration latencyDuration, int tcpStreams, double latencyK) {

    public static final int DEFAULT_MAX_PARALLEL = 64;

    public ValidateSettings {
        if (maxParallel < 2) throw new IllegalArgumentException("--max-parallel must be at least 2, got " + maxParallel);
        if (stepTimeout.isNegative() || stepTimeout.isZero()) throw new IllegalArgumentException("--step-timeout must be positive");
    }

    /** --quick (the default): 2 s TCP pairs, no storage; --full: 10 s pairs, TCP latency, storage. */
    public static ValidateSettings of(boolean full, int maxParallel, Duration stepTimeout) {
        return full
                ? new ValidateSettings(true, maxParallel, stepTimeout, Duration.ofSeconds(10), Duration.ofSeconds(3), 4, PairJudge.DEFAULT_LATENCY_K)
                : new ValidateSettings(false, maxParallel, stepTimeout, Duration.ofSeconds(2), Duration.ofSeconds(1), 4, PairJudge.DEFAULT_LATENCY_K);
    }
}
