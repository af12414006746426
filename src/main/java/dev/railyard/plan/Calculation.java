package dev.railyard.plan;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;

/**
 * What a calculator prints: its formula, every input with its unit, the results, and notes (assumptions, and where
 * the seeds' own arithmetic differs). The same record is the JSON output.
 */
public record Calculation(String calculator, List<String> formula, List<Quantity> inputs, List<Quantity> results,
                          List<String> notes) {

    public Calculation {
        formula = List.copyOf(formula);
        inputs = List.copyOf(inputs);
        results = List.copyOf(results);
        notes = List.copyOf(notes);
    }

    /** The same calculation with more notes after its own (where its inputs came from). */
    public Calculation withNotes(List<String> more) {
        List<String> all = new java.util.ArrayList<>(notes);
        all.addAll(more);
        return new Calculation(calculator, formula, inputs, results, all);
    }

    /** A named number with its unit; {@code value} is rounded for printing only. */
    public record Quantity(String name, double value, String unit) {
        public Quantity {
            // JSON has no Infinity or NaN (Jackson would write them as strings in a numeric field): the commands
            // refuse inputs that lead here, so one that gets through is a bug
            if (!Double.isFinite(value)) throw new IllegalArgumentException(name + " is " + value);
        }
    }

    public double result(String name) {
        return results.stream().filter(q -> q.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no result " + name)).value();
    }

    public String text() {
        StringBuilder s = new StringBuilder(calculator).append('\n');
        s.append("formula:\n");
        for (String f : formula) s.append("  ").append(f).append('\n');
        s.append("inputs:\n");
        table(s, inputs);
        s.append("results:\n");
        table(s, results);
        if (!notes.isEmpty()) {
            s.append("notes:\n");
            for (String n : notes) s.append("  - ").append(n).append('\n');
        }
        return s.toString();
    }

    private static void table(StringBuilder s, List<Quantity> qs) {
        int width = qs.stream().mapToInt(q -> q.name().length()).max().orElse(0);
        for (Quantity q : qs) {
            s.append("  ").append(q.name()).append(" ".repeat(width - q.name().length() + 2)).append(number(q.value()));
            if (!q.unit().isEmpty()) s.append(' ').append(q.unit());
            s.append('\n');
        }
    }

    /** Up to four significant decimals, no trailing zeros: 44.8, 5888, 0.0079. */
    static String number(double v) {
        if (Double.isInfinite(v) || Double.isNaN(v)) return Double.toString(v);
        BigDecimal d = BigDecimal.valueOf(v);
        int scale = Math.max(0, 4 - (d.precision() - d.scale()));
        return d.setScale(Math.min(scale, 6), RoundingMode.HALF_UP).stripTrailingZeros().toPlainString();
    }
}
