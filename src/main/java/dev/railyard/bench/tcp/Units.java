package dev.railyard.bench.tcp;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Sizes and durations as people type them on the command line: 128K, 1M, 64; 10s, 500ms, 2m, 10. */
public final class Units {

    private static final Pattern SIZE = Pattern.compile("(\\d+)\\s*([kmg]i?b?|b)?");
    private static final Pattern TIME = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(ms|s|m|h|us)?");

    private Units() {
    }

    /** Binary multiples, as iperf3's -l does: 128K = 131072 bytes. */
    public static long parseBytes(String text) {
        Matcher m = SIZE.matcher(text.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) throw new IllegalArgumentException("not a size: '" + text + "' (examples: 64, 128K, 1M)");
        long value = Long.parseLong(m.group(1));
        String unit = m.group(2) == null ? "b" : m.group(2);
        long factor = switch (unit.charAt(0)) {
            case 'k' -> 1L << 10;
            case 'm' -> 1L << 20;
            case 'g' -> 1L << 30;
            default -> 1;
        };
        return Math.multiplyExact(value, factor);
    }

    /** A bare number is seconds, as in iperf3's -t. */
    public static Duration parseDuration(String text) {
        Matcher m = TIME.matcher(text.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) throw new IllegalArgumentException("not a duration: '" + text + "' (examples: 10s, 500ms, 2m)");
        double value = Double.parseDouble(m.group(1));
        double nanosPerUnit = switch (m.group(2) == null ? "s" : m.group(2)) {
            case "us" -> 1e3;
            case "ms" -> 1e6;
            case "m" -> 60e9;
            case "h" -> 3600e9;
            default -> 1e9;
        };
        return Duration.ofNanos(Math.round(value * nanosPerUnit));
    }
}
