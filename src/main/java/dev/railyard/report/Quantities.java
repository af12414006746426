package dev.railyard.report;

import dev.railyard.model.PairOutcome;
import dev.railyard.model.PairResult;

import java.time.Duration;
import java.util.Locale;

/** Numbers as the report forms print them, so HTML, Markdown and the history commands agree digit for digit. */
public final class Quantities {

    private Quantities() {
    }

    /** Three significant digits or so: 36.4, 0.85, 9.31, 412. */
    public static String number(double v) {
        double a = Math.abs(v);
        String fmt = a >= 100 ? "%.0f" : a >= 10 ? "%.1f" : "%.2f";
        return String.format(Locale.ROOT, fmt, v);
    }

    /** "36.4 Gb/s", or "failed: why". */
    public static String outcome(PairResult r) {
        return switch (r.outcome()) {
            case PairOutcome.Measured(double v) -> number(v) + " " + r.test().kind().unit();
            case PairOutcome.Failed(String reason) -> "failed: " + reason;
            case PairOutcome.NotRun(String why) -> "not run: " + why;
        };
    }

    /** Message sizes as nccl-tests and perftest users read them: 8 B, 64 KiB, 2 GiB. */
    public static String bytes(long bytes) {
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
        double v = bytes;
        int u = 0;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return (v == Math.rint(v) ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.1f", v))
                + " " + units[u];
    }

    /** "1h 02m 03s", "4m 05s", "7.2s". */
    public static String duration(Duration d) {
        long s = d.toSeconds();
        if (s >= 3600) return String.format(Locale.ROOT, "%dh %02dm %02ds", s / 3600, s / 60 % 60, s % 60);
        if (s >= 60) return String.format(Locale.ROOT, "%dm %02ds", s / 60, s % 60);
        return String.format(Locale.ROOT, "%.1fs", d.toMillis() / 1000.0);
    }

    /** A moment to the second, as people read it in a header or a list; JSON keeps the full precision. */
    public static String time(java.time.Instant t) {
        return t.truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString();
    }
}
