package dev.railyard.platform;

import java.time.Instant;

/** Time as a seam, so detectors and reports can be tested with a fixed or stepped clock. */
public interface Clock {
    Instant now();

    /** Monotonic nanoseconds for measuring durations. */
    long nanoTime();

    static Clock system() {
        return new Clock() {
            @Override
            public Instant now() {
                return Instant.now();
            }

            @Override
            public long nanoTime() {
                return System.nanoTime();
            }
        };
    }
}
