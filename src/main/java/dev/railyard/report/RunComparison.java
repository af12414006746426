package dev.railyard.report;

import dev.railyard.model.PairKind;
import dev.railyard.model.PairOutcome;
import dev.railyard.model.PairResult;
import dev.railyard.model.ValidationReport;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Two runs side by side, per network, kind and pair, with the change in percent: the before-and-after table
 * people make by hand around a fabric change (cables back to back, then through a switch), made from stored runs. Each pair's value is its last attempt (the one
 * judged); each network and kind also gets a median row, the line a person reads first.
 */
public record RunComparison(Side a, Side b, List<Row> rows) {

    public RunComparison {
        rows = List.copyOf(rows);
    }

    /** One run as the comparison names it. */
    public record Side(String runId, String cluster, String startedAt, String verdict, boolean complete) {}

    /**
     * One line of the table: {@code pair} is "a<->b" or "median" for the summary row; a value is absent when that
     * run has no number for it. {@code changePercent} is (b - a) / a; {@code judgement} says whether that is better
     * or worse for this kind (within ±1 % is "same").
     */
    public record Row(String network, PairKind kind, String unit, String pair, Optional<Double> a,
                      Optional<Double> b, Optional<Double> changePercent, String judgement) {}

    public static RunComparison of(ValidationReport a, ValidationReport b) {
        Map<String, Map<PairKind, Map<String, Double[]>>> table = new LinkedHashMap<>();
        collect(table, a, 0);
        collect(table, b, 1);
        List<Row> rows = new ArrayList<>();
        table.forEach((network, kinds) -> kinds.forEach((kind, pairs) -> {
            rows.add(row(network, kind, "median", median(pairs, 0), median(pairs, 1)));
            pairs.forEach((pair, v) -> rows.add(row(network, kind, pair, Optional.ofNullable(v[0]),
                    Optional.ofNullable(v[1]))));
        }));
        return new RunComparison(side(a), side(b), rows);
    }

    private static Side side(ValidationReport r) {
        return new Side(r.runId(), r.cluster(), Quantities.time(r.startedAt()), r.severity().name(), r.complete());
    }

    private static void collect(Map<String, Map<PairKind, Map<String, Double[]>>> table, ValidationReport r, int side) {
        List<PairResult> ordered = r.pairs().stream().sorted(Comparator.comparingInt(PairResult::attempt)).toList();
        for (PairResult p : ordered) {
            String pair = p.test().subject().substring(p.test().network().length() + 1);
            Double[] cell = table.computeIfAbsent(p.test().network(), n -> new LinkedHashMap<>())
                    .computeIfAbsent(p.test().kind(), k -> new java.util.TreeMap<>())
                    .computeIfAbsent(pair, x -> new Double[2]);
            // The last attempt wins; a failed one leaves no number (the earlier number was not the judged one).
            cell[side] = p.outcome() instanceof PairOutcome.Measured(double v) ? v : null;
        }
    }

    private static Optional<Double> median(Map<String, Double[]> pairs, int side) {
        List<Double> values = pairs.values().stream().map(v -> v[side]).filter(java.util.Objects::nonNull).sorted().toList();
        if (values.isEmpty()) return Optional.empty();
        int n = values.size();
        return Optional.of(n % 2 == 1 ? values.get(n / 2) : (values.get(n / 2 - 1) + values.get(n / 2)) / 2);
    }

    private static Row row(String network, PairKind kind, String pair, Optional<Double> a, Optional<Double> b) {
        Optional<Double> change = a.isPresent() && b.isPresent() && a.get() != 0
                ? Optional.of((b.get() - a.get()) / a.get() * 100) : Optional.empty();
        String judgement = change.map(c -> Math.abs(c) <= 1 ? "same"
                : (c > 0) == kind.higherIsBetter() ? "better" : "worse")
                .orElse(a.isEmpty() && b.isEmpty() ? "no numbers" : a.isEmpty() ? "only in B" : b.isEmpty() ? "only in A" : "n/a");
        return new Row(network, kind, kind.unit(), pair, a, b, change, judgement);
    }

    /** The table for a terminal. */
    public String text() {
        List<String[]> lines = new ArrayList<>();
        lines.add(new String[]{"NETWORK", "TEST", "PAIR", "A", "B", "CHANGE", ""});
        for (Row r : rows) {
            lines.add(new String[]{r.network(), r.kind().name().toLowerCase(Locale.ROOT).replace('_', ' '), r.pair(),
                    r.a().map(v -> Quantities.number(v) + " " + r.unit()).orElse("—"),
                    r.b().map(v -> Quantities.number(v) + " " + r.unit()).orElse("—"),
                    r.changePercent().map(c -> String.format(Locale.ROOT, "%+.1f %%", c)).orElse(""), r.judgement()});
        }
        int[] w = new int[7];
        for (String[] l : lines) for (int i = 0; i < 7; i++) w[i] = Math.max(w[i], l[i].length());
        StringBuilder out = new StringBuilder();
        out.append("A: ").append(describe(a)).append('\n').append("B: ").append(describe(b)).append("\n\n");
        if (rows.isEmpty()) return out.append("Neither run has pair results to compare.\n").toString();
        for (String[] l : lines) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < 7; i++) {
                boolean right = i >= 3 && i <= 5;
                String cell = right ? " ".repeat(w[i] - l[i].length()) + l[i] : l[i] + " ".repeat(w[i] - l[i].length());
                line.append(cell).append(i < 6 ? "  " : "");
            }
            out.append(line.toString().stripTrailing()).append('\n');
        }
        return out.toString();
    }

    private static String describe(Side s) {
        return s.runId() + "  " + s.cluster() + "  started " + s.startedAt() + "  " + s.verdict()
                + (s.complete() ? "" : " (incomplete)");
    }
}
