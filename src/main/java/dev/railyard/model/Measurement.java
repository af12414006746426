package dev.railyard.model;

import java.util.Objects;

/**
 * One number a validate run measured outside the pair matrix: loopback TCP, NCCL busbw at the sweep's largest size,
 * a GPU's copy rate, storage throughput. {@code benchmark} names what was measured ("GPU copy host->device"),
 * {@code subject} where ("gpuserver1 GPU0"); the two together identify it across runs, which is how compare matches
 * them. Every measurement here is a rate: higher is better.
 */
public record Measurement(String benchmark, String subject, double value, String unit) {

    public Measurement {
        Objects.requireNonNull(benchmark);
        Objects.requireNonNull(subject);
        Objects.requireNonNull(unit);
        if (!Double.isFinite(value) || value < 0) throw new IllegalArgumentException("not a measurement: " + value);
    }

    /** "GPU copy host->device on gpuserver1 GPU0": the key compare matches runs on. */
    public String key() {
        return benchmark + " on " + subject;
    }

    /** "NCCL all_reduce busbw at 128 MiB": a point of a size curve named as a measurement, so compare matches both. */
    public static String atSize(String title, long bytes) {
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
        long v = bytes;
        int u = 0;
        while (v >= 1024 && v % 1024 == 0 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return title + " at " + v + " " + units[u];
    }
}
