package dev.railyard.bench.nccl;

import java.util.Locale;

/** Byte counts in the units -b/-e take (powers of 1024), for messages that suggest a size. */
final class Sizes {

    private Sizes() {
    }

    /** "300 GiB", "1.5 GiB", "512 MiB". */
    static String text(long bytes) {
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
        double v = bytes;
        int u = 0;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return v == Math.rint(v) ? (long) v + " " + units[u] : String.format(Locale.ROOT, "%.1f %s", v, units[u]);
    }

    /** The largest whole G, M, K or byte count at most {@code bytes}, as an option value ("69G"). */
    static String option(long bytes) {
        if (bytes >= 1L << 30) return (bytes >> 30) + "G";
        if (bytes >= 1L << 20) return (bytes >> 20) + "M";
        if (bytes >= 1L << 10) return (bytes >> 10) + "K";
        return String.valueOf(bytes);
    }
}
