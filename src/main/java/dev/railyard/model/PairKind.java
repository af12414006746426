package dev.railyard.model;

/** What one pairwise test between two nodes measures, in which unit, and which direction is better. */
public enum PairKind {
    TCP_BANDWIDTH("bench.tcp.bw", "Gb/s", true),
    TCP_LATENCY("bench.tcp.lat", "µs", false),
    RDMA_BANDWIDTH("bench.rdma.bw", "Gb/s", true),
    RDMA_LATENCY("bench.rdma.lat", "µs", false);

    private final String checkId;
    private final String unit;
    private final boolean higherIsBetter;

    PairKind(String checkId, String unit, boolean higherIsBetter) {
        this.checkId = checkId;
        this.unit = unit;
        this.higherIsBetter = higherIsBetter;
    }

    /** The catalog ID its findings carry. */
    public String checkId() {
        return checkId;
    }

    public String unit() {
        return unit;
    }

    public boolean higherIsBetter() {
        return higherIsBetter;
    }
}
