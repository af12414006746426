package dev.railyard.model;

/** A PCIe link's trained generation and width against what the device supports. */
public record PcieLink(int currentGen, int maxGen, int currentWidth, int maxWidth) {

    public boolean degraded() {
        return currentGen < maxGen || currentWidth < maxWidth;
    }

    /** PCIe generation for a sysfs speed such as "16.0 GT/s PCIe" or "8 GT/s"; 0 when unknown. */
    public static int generationOf(String speed) {
        String s = speed.trim();
        int cut = s.indexOf("GT/s");
        if (cut < 0) return 0;
        double gts;
        try {
            gts = Double.parseDouble(s.substring(0, cut).trim());
        } catch (NumberFormatException e) {
            return 0;
        }
        if (gts >= 64) return 6;
        if (gts >= 32) return 5;
        if (gts >= 16) return 4;
        if (gts >= 8) return 3;
        if (gts >= 5) return 2;
        if (gts >= 2.5) return 1;
        return 0;
    }
}
