package dev.railyard.report;

import dev.railyard.model.Culprit;
import dev.railyard.model.Measurement;
import dev.railyard.model.PairKind;
import dev.railyard.model.PairOutcome;
import dev.railyard.model.PairResult;
import dev.railyard.model.SizeCurve;
import dev.railyard.model.ValidationReport;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Two runs side by side on every number they stored: the node benchmarks (loopback TCP, NCCL busbw per size, GPU
 * copies, storage), each network's pairs (the median over them, then each pair's last attempt), and the culprits
 * that appeared or went away. Rows come largest change first. A change counts only beyond its noise band: twice the
 * relative spread of that number over the earlier runs of the same cluster (at least {@link #MIN_BAND} %), or
 * {@link #DEFAULT_BAND} % where fewer than two earlier runs measured it.
 */
public record RunComparison(Side a, Side b, int noiseRuns, List<Row> rows, List<String> culpritsAppeared,
                            List<String> culpritsGone) {

    static final double MIN_BAND = 1.0;
    static final double DEFAULT_BAND = 5.0;
    /** Rows within noise the text lists before it only counts them (JSON has every row). */
    static final int TEXT_WITHIN_NOISE = 20;

    public RunComparison {
        rows = List.copyOf(rows);
        culpritsAppeared = List.copyOf(culpritsAppeared);
        culpritsGone = List.copyOf(culpritsGone);
    }

    /** One run as the comparison names it. */
    public record Side(String runId, String cluster, String startedAt, String verdict, boolean complete) {}

    /**
     * One number in both runs: {@code benchmark} ("loopback TCP", "rdma bandwidth"), {@code network} for pairs (""
     * for node benchmarks), {@code subject} (a node or GPU, "a<->b", or "median" over a network's pairs). A value
     * is absent when that run has no number. {@code changePercent} is (b - a) / a; {@code noisePercent} the band it
     * is judged against; {@code judgement} better, worse, "within noise", or which run lacks it.
     */
    public record Row(String benchmark, String network, String subject, String unit, boolean higherIsBetter,
                      Optional<Double> a, Optional<Double> b, Optional<Double> changePercent, double noisePercent,
                      String judgement) {

        boolean beyondNoise() {
            return changePercent.isPresent() && Math.abs(changePercent.get()) > noisePercent;
        }
    }

    private record Key(String benchmark, String network, String subject) {}

    private record Value(String unit, boolean higherIsBetter, double value) {}

    /** {@code repeats}: earlier runs of the same cluster, whose spread gives each number its noise band. */
    public static RunComparison of(ValidationReport a, ValidationReport b, List<ValidationReport> repeats) {
        Map<Key, Value> va = values(a);
        Map<Key, Value> vb = values(b);
        List<Map<Key, Value>> history = repeats.stream().map(RunComparison::values).toList();
        LinkedHashMap<Key, Value> keys = new LinkedHashMap<>(va);
        vb.forEach(keys::putIfAbsent);
        List<Row> rows = new ArrayList<>();
        keys.forEach((k, v) -> {
            Optional<Double> x = Optional.ofNullable(va.get(k)).map(Value::value);
            Optional<Double> y = Optional.ofNullable(vb.get(k)).map(Value::value);
            Optional<Double> change = x.isPresent() && y.isPresent() && x.get() != 0
                    ? Optional.of((y.get() - x.get()) / x.get() * 100) : Optional.empty();
            // a pair's band is its network's median's: one pair is measured once a run, too few to spread
            Key noiseKey = k.network().isEmpty() ? k : new Key(k.benchmark(), k.network(), "median");
            double band = band(history.stream().map(h -> h.get(noiseKey)).filter(java.util.Objects::nonNull)
                    .mapToDouble(Value::value).toArray());
            String judgement = change.map(c -> Math.abs(c) <= band ? "within noise"
                            : (c > 0) == v.higherIsBetter() ? "better" : "worse")
                    .orElse(x.isEmpty() && y.isEmpty() ? "no numbers" : x.isEmpty() ? "only in B" : y.isEmpty() ? "only in A" : "n/a");
            rows.add(new Row(k.benchmark(), k.network(), k.subject(), v.unit(), v.higherIsBetter(), x, y, change, band, judgement));
        });
        rows.sort(Comparator.comparingInt(RunComparison::rank)
                .thenComparing(r -> -Math.abs(r.changePercent().orElse(0.0))));
        List<String> before = a.culprits().stream().map(Culprit::subject).toList();
        List<String> after = b.culprits().stream().map(Culprit::subject).toList();
        return new RunComparison(side(a), side(b), repeats.size(), rows,
                after.stream().filter(s -> !before.contains(s)).toList(), before.stream().filter(s -> !after.contains(s)).toList());
    }

    /** Beyond noise first, then a number only one run has, then within noise, then no numbers. */
    private static int rank(Row r) {
        if (r.beyondNoise()) return 0;
        if (r.a().isPresent() != r.b().isPresent()) return 1;
        return r.changePercent().isPresent() ? 2 : 3;
    }

    /** Twice the relative standard deviation over the repeated runs, in %; the default with fewer than two. */
    static double band(double[] v) {
        if (v.length < 2) return DEFAULT_BAND;
        double mean = java.util.Arrays.stream(v).average().orElse(0);
        if (mean == 0) return DEFAULT_BAND;
        double var = java.util.Arrays.stream(v).map(x -> (x - mean) * (x - mean)).sum() / (v.length - 1);
        return Math.max(MIN_BAND, 2 * Math.sqrt(var) / Math.abs(mean) * 100);
    }

    private static Side side(ValidationReport r) {
        return new Side(r.runId(), r.cluster(), Quantities.time(r.startedAt()), r.severity().name(), r.complete());
    }

    /** Every number a run stored, by what and where it measured. */
    private static Map<Key, Value> values(ValidationReport r) {
        Map<Key, Value> out = new LinkedHashMap<>();
        for (Measurement m : r.measurements()) out.put(new Key(m.benchmark(), "", m.subject()), new Value(m.unit(), true, m.value()));
        for (SizeCurve c : r.curves()) {
            for (SizeCurve.Point p : c.points()) {
                if (Double.isFinite(p.value())) {
                    out.putIfAbsent(new Key(Measurement.atSize(c.title(), p.bytes()), "", c.subject()), new Value(c.unit(), true, p.value()));
                }
            }
        }
        Map<String, Map<PairKind, Map<String, Double>>> pairs = new LinkedHashMap<>();
        for (PairResult p : r.pairs().stream().sorted(Comparator.comparingInt(PairResult::attempt)).toList()) {
            // the last attempt wins; a failed one leaves no number (the earlier number was not the judged one)
            Map<String, Double> byPair = pairs.computeIfAbsent(p.test().network(), n -> new LinkedHashMap<>())
                    .computeIfAbsent(p.test().kind(), k -> new java.util.TreeMap<>());
            String pair = p.test().subject().substring(p.test().network().length() + 1);
            if (p.outcome() instanceof PairOutcome.Measured(double v)) byPair.put(pair, v);
            else byPair.remove(pair);
        }
        pairs.forEach((network, kinds) -> kinds.forEach((kind, byPair) -> {
            String what = kind.name().toLowerCase(Locale.ROOT).replace('_', ' ');
            double[] v = byPair.values().stream().mapToDouble(Double::doubleValue).sorted().toArray();
            if (v.length > 0) {
                double median = v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
                out.put(new Key(what, network, "median"), new Value(kind.unit(), kind.higherIsBetter(), median));
            }
            byPair.forEach((pair, value) -> out.put(new Key(what, network, pair), new Value(kind.unit(), kind.higherIsBetter(), value)));
        }));
        return out;
    }

    /** The table for a terminal: every change beyond noise, largest first, then the rest counted. */
    public String text() {
        StringBuilder out = new StringBuilder();
        out.append("A: ").append(describe(a)).append('\n').append("B: ").append(describe(b)).append('\n');
        out.append(noiseRuns >= 2 ? "Noise band: twice the spread of each number over " + noiseRuns + " earlier runs of "
                + b.cluster() + " (at least ±" + (int) MIN_BAND + " %)"
                : "Noise band: ±" + (int) DEFAULT_BAND + " % (fewer than two earlier runs of " + b.cluster()
                + " to measure it from)").append("\n\n");
        if (rows.isEmpty()) out.append("Neither run stored a number to compare.\n");
        else {
            TextTable t = new TextTable("BENCHMARK", "WHERE", "A", "B", "CHANGE", "NOISE", "");
            int withinShown = 0;
            int withinLeft = 0;
            for (Row r : rows) {
                if (rank(r) == 2 && withinShown++ >= TEXT_WITHIN_NOISE) {
                    withinLeft++;
                    continue;
                }
                t.row(r.benchmark(), (r.network().isEmpty() ? "" : r.network() + " ") + r.subject(),
                        r.a().map(v -> Quantities.number(v) + " " + r.unit()).orElse("—"),
                        r.b().map(v -> Quantities.number(v) + " " + r.unit()).orElse("—"),
                        r.changePercent().map(c -> String.format(Locale.ROOT, "%+.1f %%", c)).orElse(""),
                        String.format(Locale.ROOT, "±%.0f %%", r.noisePercent()), r.judgement());
            }
            t.appendTo(out, "", TextStyle.DEFAULT_WIDTH + 40);
            if (withinLeft > 0) out.append("and ").append(withinLeft).append(" more within noise (--format json lists every row)\n");
        }
        if (!culpritsAppeared.isEmpty() || !culpritsGone.isEmpty()) out.append('\n');
        for (String c : culpritsAppeared) out.append("culprit appeared in B: ").append(c).append('\n');
        for (String c : culpritsGone) out.append("culprit gone in B: ").append(c).append('\n');
        return out.toString();
    }

    private static String describe(Side s) {
        return s.runId() + "  " + s.cluster() + "  started " + s.startedAt() + "  " + s.verdict()
                + (s.complete() ? "" : " (incomplete)");
    }
}
