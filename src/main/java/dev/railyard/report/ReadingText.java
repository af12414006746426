package dev.railyard.report;

import dev.railyard.model.PcieLink;
import dev.railyard.model.Reading;
import dev.railyard.model.ValueText;

import java.util.Locale;
import java.util.function.Function;

/** How the inventory text writes one value: formatted when present, else Reading.describe() with the reason. */
final class ReadingText {

    private static final String[] IEC = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};

    private ReadingText() {
    }

    /** Escaped and cut ({@link ValueText#printable}): the value may be whatever a node tree held. */
    static <T> String of(Reading<T> r, Function<? super T, String> format) {
        return ValueText.printable(r instanceof Reading.Present<T>(T v) ? format.apply(v) : r.describe());
    }

    static String of(Reading<?> r) {
        return ValueText.printable(r.describe());
    }

    /** 1536 -> "1.5 KiB"; below 1 KiB the exact count. */
    static String bytes(long n) {
        if (n < 1024) return n + " B";
        double v = n;
        int u = 0;
        while (v >= 1024 && u < IEC.length - 1) {
            v /= 1024;
            u++;
        }
        return String.format(Locale.ROOT, "%.1f %s", v, IEC[u]);
    }

    /** Drive capacities in the vendors' decimal units: 512110190592 -> "512.1 GB". */
    static String decimalBytes(long n) {
        String[] units = {"B", "kB", "MB", "GB", "TB", "PB"};
        double v = n;
        int u = 0;
        while (v >= 1000 && u < units.length - 1) {
            v /= 1000;
            u++;
        }
        return u == 0 ? n + " B" : String.format(Locale.ROOT, "%.1f %s", v, units[u]);
    }

    /** "Gen4 x16 (max Gen5 x16)", or "Gen5 x16" when trained at its maximum; gen 0 is an unknown speed. */
    static String link(PcieLink l) {
        String current = gen(l.currentGen()) + " x" + l.currentWidth();
        String max = gen(l.maxGen()) + " x" + l.maxWidth();
        return current.equals(max) ? current : current + " (max " + max + ")";
    }

    private static String gen(int g) {
        return g == 0 ? "Gen?" : "Gen" + g;
    }

    static String number(double d) {
        return d == Math.rint(d) ? String.valueOf((long) d) : String.format(Locale.ROOT, "%.1f", d);
    }
}
