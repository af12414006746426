package dev.railyard.bench.gpu;

/** Usable PCIe bandwidth per direction: lanes x per-lane rate after line encoding (8b/10b to Gen2, 128b/130b after). */
public final class PcieBandwidth {

    private PcieBandwidth() {
    }

    /** GB/s per lane and direction for generations 1..6; 0 for unknown. */
    public static double perLaneGBps(int gen) {
        return switch (gen) {
            case 1 -> 0.25;
            case 2 -> 0.5;
            case 3 -> 0.985;
            case 4 -> 1.969;
            case 5 -> 3.938;
            case 6 -> 7.563;
            default -> 0;
        };
    }

    public static double theoreticalGBps(int gen, int width) {
        return perLaneGBps(gen) * width;
    }
}
