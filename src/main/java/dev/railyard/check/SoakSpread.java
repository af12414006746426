package dev.railyard.check;

import dev.railyard.model.CheckId;
import dev.railyard.model.Finding;
import dev.railyard.model.Severity;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * soak.busbw: one figure (NCCL busbw, a pair's bandwidth) measured again and again for the soak's window. A single
 * run can land in a good second; the minimum and the median against expect say whether the fabric holds its rate,
 * and a wide spread between the fastest and the slowest repetition is a link or GPU that sags under heat or load.
 */
public final class SoakSpread {

    static final String ID = CheckId.SOAK_BUSBW.id();
    /** (max - min) / median above this is a WARN: a steady fabric repeats itself within a few per cent. */
    public static final double SPREAD_WARN = 0.10;

    private SoakSpread() {
    }

    /** The figures of one series: the measured values in repetition order and how many repetitions gave none. */
    public record Series(String subject, String unit, List<Double> values, int failed, List<String> failures) {
        public Series {
            values = List.copyOf(values);
            failures = List.copyOf(failures);
        }

        public double min() {
            return values.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
        }

        public double max() {
            return values.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
        }

        public double median() {
            List<Double> sorted = values.stream().sorted().toList();
            int n = sorted.size();
            if (n == 0) return Double.NaN;
            return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
        }

        /** (max - min) / median; 0 for one value. */
        public double spread() {
            double m = median();
            return values.size() < 2 || m <= 0 ? 0 : (max() - min()) / m;
        }
    }

    /** The findings for one series; {@code floor} is the spec's expect for it, when it sets one. */
    public static List<Finding> judge(Series s, Optional<Double> floor) {
        String expected = floor.map(f -> "min and median at least " + fmt(f) + " " + s.unit() + ", spread within "
                + pct(SPREAD_WARN)).orElse("every repetition measured, spread within " + pct(SPREAD_WARN));
        int total = s.values().size() + s.failed();
        if (s.values().isEmpty()) {
            return List.of(Finding.of(ID, total == 0 ? Severity.UNKNOWN : Severity.FAIL, s.subject(),
                    total == 0 ? "no repetition ran" : "none of " + total + " repetitions gave a result"
                            + s.failures().stream().findFirst().map(w -> " (" + w + ")").orElse(""), expected, ""));
        }
        String figures = s.values().size() + " of " + total + " repetitions: min " + fmt(s.min()) + ", median "
                + fmt(s.median()) + ", max " + fmt(s.max()) + " " + s.unit() + ", spread " + pct(s.spread());
        List<Finding> out = new ArrayList<>();
        if (s.failed() > 0) {
            out.add(Finding.of(ID, Severity.FAIL, s.subject(), s.failed() + " of " + total + " repetitions gave no result"
                    + s.failures().stream().findFirst().map(w -> " (" + w + ")").orElse("") + "; " + figures, expected, ""));
        }
        if (floor.isPresent() && s.median() < floor.get()) {
            out.add(Finding.of(ID, Severity.FAIL, s.subject(), "median " + fmt(s.median()) + " below " + fmt(floor.get())
                    + " " + s.unit() + "; " + figures, expected, ""));
        } else if (floor.isPresent() && s.min() < floor.get()) {
            out.add(Finding.of(ID, Severity.FAIL, s.subject(), "min " + fmt(s.min()) + " below " + fmt(floor.get())
                    + " " + s.unit() + " in " + below(s, floor.get()) + " of " + s.values().size() + " repetitions; "
                    + figures, expected, ""));
        }
        if (s.spread() > SPREAD_WARN) {
            out.add(Finding.of(ID, Severity.WARN, s.subject(), "spread " + pct(s.spread()) + " between the slowest and "
                    + "the fastest repetition; " + figures, expected, ""));
        }
        if (out.isEmpty()) out.add(Finding.pass(ID, s.subject(), figures, expected));
        return out;
    }

    private static long below(Series s, double floor) {
        return s.values().stream().filter(v -> v < floor).count();
    }

    private static String fmt(double v) {
        return String.format(Locale.ROOT, "%.2f", v);
    }

    private static String pct(double v) {
        return String.format(Locale.ROOT, "%.1f %%", v * 100);
    }
}
