package dev.railyard.model;

import java.util.Arrays;

/** Latency distribution in microseconds; percentiles by nearest rank over every measured message. */
public record LatencyStats(long samples, double minMicros, double avgMicros, double p50Micros, double p99Micros,
                           double p999Micros, double maxMicros) {

    /** One-way latency from round trips, halved as sockperf reports it. Sorts a copy of the first n values. */
    public static LatencyStats oneWayFromRoundTrips(long[] rttNanos, int n) {
        if (n == 0) return new LatencyStats(0, 0, 0, 0, 0, 0, 0);
        long[] sorted = Arrays.copyOf(rttNanos, n);
        Arrays.sort(sorted);
        double sum = 0;
        for (long v : sorted) sum += v;
        return new LatencyStats(n, oneWay(sorted[0]), sum / n / 2000.0, oneWay(rank(sorted, 0.50)),
                oneWay(rank(sorted, 0.99)), oneWay(rank(sorted, 0.999)), oneWay(sorted[n - 1]));
    }

    private static long rank(long[] sorted, double p) {
        int idx = (int) Math.ceil(p * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, idx))];
    }

    private static double oneWay(long rttNanos) {
        return rttNanos / 2000.0;
    }
}
