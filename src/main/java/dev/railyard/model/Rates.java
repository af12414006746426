package dev.railyard.model;

/** Gb/s as iperf3 counts them: decimal gigabits (10^9 bits) per second. */
public final class Rates {

    private Rates() {
    }

    public static double gbits(long bytes, double seconds) {
        return seconds <= 0 ? 0 : bytes * 8.0 / seconds / 1e9;
    }
}
