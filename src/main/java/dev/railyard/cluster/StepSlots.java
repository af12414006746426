package dev.railyard.cluster;

import java.util.concurrent.Semaphore;

/**
 * The bounded fan-out: at most {@code max} remote steps at once over the whole run (--max-parallel), so a thousand
 * nodes do not open a thousand ssh sessions together. A pair test holds two slots (server and client).
 */
public final class StepSlots {

    private final Semaphore permits;
    private final int max;

    public StepSlots(int max) {
        if (max < 2) throw new IllegalArgumentException("--max-parallel must be at least 2 (a pair runs two steps), got " + max);
        this.max = max;
        this.permits = new Semaphore(max, true);
    }

    public int max() {
        return max;
    }

    /** Takes {@code n} slots; release them with the returned handle. */
    public Held acquire(int n) throws InterruptedException {
        permits.acquire(n);
        return () -> permits.release(n);
    }

    /** Slots held by a step; closing gives them back. */
    public interface Held extends AutoCloseable {
        @Override
        void close();
    }
}
