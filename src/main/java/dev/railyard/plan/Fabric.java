package dev.railyard.plan;

/**
 * Link presets for the all-reduce model: bandwidth per direction in GB/s and an assumed per-step latency α in µs
 * (NCCL's software cost plus the wire; measure yours with bench nccl at 8 bytes and pass --alpha-us).
 */
public enum Fabric {
    NVLINK_H100("nvlink-h100", 450, 1.0),
    /** QDR signals 40 Gb/s with 8b/10b encoding: 32 Gb/s of data. */
    IB_QDR("ib-qdr", 4, 3.0),
    IB_EDR("ib-edr", 12.5, 3.0),
    IB_HDR("ib-hdr", 25, 3.0),
    IB_NDR("ib-ndr", 50, 3.0),
    ROCE_25("roce-25", 3.125, 5.0),
    ROCE_40("roce-40", 5, 5.0),
    ROCE_100("roce-100", 12.5, 5.0),
    ROCE_200("roce-200", 25, 5.0),
    ROCE_400("roce-400", 50, 5.0);

    public final String label;
    public final double gbytesPerSecond;
    public final double alphaUs;

    Fabric(String label, double gbytesPerSecond, double alphaUs) {
        this.label = label;
        this.gbytesPerSecond = gbytesPerSecond;
        this.alphaUs = alphaUs;
    }

    /** The preset for a spec network's link layer and rate (InfiniBand 40 is QDR, 100 EDR...), when there is one. */
    public static java.util.Optional<Fabric> forLink(boolean infiniband, double gbps) {
        String label = infiniband
                ? switch ((int) Math.round(gbps)) {
                    case 40 -> "ib-qdr";
                    case 100 -> "ib-edr";
                    case 200 -> "ib-hdr";
                    case 400 -> "ib-ndr";
                    default -> "";
                }
                : "roce-" + Math.round(gbps);
        for (Fabric f : values()) if (f.label.equals(label)) return java.util.Optional.of(f);
        return java.util.Optional.empty();
    }

    public static Fabric parse(String s) {
        for (Fabric f : values()) if (f.label.equalsIgnoreCase(s)) return f;
        throw new IllegalArgumentException(s);
    }
}
