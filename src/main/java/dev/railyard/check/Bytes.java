package dev.railyard.check;

/** Byte counts for people: 65536 -> "64 KiB (65536 bytes)". */
final class Bytes {
    private Bytes() {
    }

    static String human(long bytes) {
        String[] units = {"KiB", "MiB", "GiB", "TiB"};
        double v = bytes;
        int u = -1;
        while (v >= 1024 && u < units.length - 1 && v % 1024 == 0) {
            v /= 1024;
            u++;
        }
        return u < 0 ? bytes + " bytes" : String.format(java.util.Locale.ROOT, "%.0f %s (%d bytes)", v, units[u], bytes);
    }
}
