package dev.railyard.model;

import java.util.OptionalDouble;

/**
 * One row of a bandwidth table, in the unit its header names. perftest's "MB/sec" is 2^20 bytes per second
 * (format_factor 0x100000 in perftest_resources.c) and its "Gb/sec" (--report_gbits) is 10^9 bits per second
 * (format_factor 125000000 bytes); {@link #averageGbps()} converts either to 10^9 bits per second.
 */
public record BwRow(long bytes, long iterations, double peak, double average, OptionalDouble msgRateMpps,
                    BwUnit unit) {

    public enum BwUnit {
        MIB_PER_SEC("MB/sec", 1_048_576.0 * 8 / 1e9),
        GBIT_PER_SEC("Gb/sec", 1.0);

        private final String label;
        private final double toGbps;

        BwUnit(String label, double toGbps) {
            this.label = label;
            this.toGbps = toGbps;
        }

        public String label() {
            return label;
        }

        public double toGbps(double v) {
            return v * toGbps;
        }
    }

    public double averageGbps() {
        return unit.toGbps(average);
    }
}
