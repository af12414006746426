package dev.railyard.agent;

import dev.railyard.platform.Clock;

import java.time.Duration;
import java.time.Instant;

/** A clock the test moves by hand, so windows and hold-downs are tested without sleeping. */
final class SteppedClock implements Clock {

    private Instant now = Instant.parse("2026-11-23T00:00:00Z");
    private long nanos;

    @Override
    public synchronized Instant now() {
        return now;
    }

    @Override
    public synchronized long nanoTime() {
        return nanos;
    }

    synchronized void advance(Duration d) {
        now = now.plus(d);
        nanos += d.toNanos();
    }
}
