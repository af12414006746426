package dev.railyard.bench.tcp;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Durations as people type them on the command line: 10s, 500ms, 2m, 10 (sizes: cli.ByteSizeConverter). */
public final class Units {

    private static final Pattern TIME = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(ms|s|m|h|us)?");

    private Units() {
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
