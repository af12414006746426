package dev.railyard.cli;

import dev.railyard.model.RailyardException;

/** The bench commands' --expect-* thresholds: a usage error unless a positive, finite number (0 or -5 passes all). */
final class ExpectOption {

    private ExpectOption() {
    }

    static void requirePositive(String option, Double value, String example) {
        if (value != null && !(value > 0 && Double.isFinite(value))) {
            throw new RailyardException.Usage(option + " must be a positive number, got " + plain(value),
                    "e.g. " + option + " " + example);
        }
    }

    private static String plain(double v) {
        return v == Math.rint(v) && Double.isFinite(v) ? Long.toString((long) v) : Double.toString(v);
    }
}
