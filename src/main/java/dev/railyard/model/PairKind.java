package dev.railyard.model;

/** What one pairwise test between two nodes measures, in which unit, and which direction is better. */
public enum PairKind {
    TCP_BANDWIDTH(CheckId.BENCH_TCP_BW, "Gb/s", true),
    TCP_LATENCY(CheckId.BENCH_TCP_LAT, "µs", false),
    RDMA_BANDWIDTH(CheckId.BENCH_RDMA_BW, "Gb/s", true),
    RDMA_LATENCY(CheckId.BENCH_RDMA_LAT, "µs", false);

    private final CheckId checkId;
    private final String unit;
    private final boolean higherIsBetter;

    PairKind(CheckId checkId, String unit, boolean higherIsBetter) {
        this.checkId = checkId;
        this.unit = unit;
        this.higherIsBetter = higherIsBetter;
    }

    /** The catalog ID its findings carry. */
    public String checkId() {
        return checkId.id();
    }

    public String unit() {
        return unit;
    }

    /** Whether the test runs over RDMA (perftest) rather than TCP. */
    public boolean rdma() {
        return this == RDMA_BANDWIDTH || this == RDMA_LATENCY;
    }

    public boolean higherIsBetter() {
        return higherIsBetter;
    }
}
