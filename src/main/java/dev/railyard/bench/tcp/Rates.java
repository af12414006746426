package dev.railyard.bench.tcp;

/** Gb/s as iperf3 counts them: decimal gigabits (10^9 bits) per second. */
final class Rates {

    private Rates() {
    }

    static double gbits(long bytes, double seconds) {
        return seconds <= 0 ? 0 : bytes * 8.0 / seconds / 1e9;
    }
}
