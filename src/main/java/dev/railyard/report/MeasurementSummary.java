package dev.railyard.report;

import dev.railyard.model.CheckId;
import dev.railyard.model.Finding;
import dev.railyard.model.Measurement;
import dev.railyard.model.PairKind;
import dev.railyard.model.PairOutcome;
import dev.railyard.model.PairResult;
import dev.railyard.model.Severity;
import dev.railyard.model.ValidationReport;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a validate run measured, one line per benchmark, as the terminal, the HTML and the Markdown open with it (as
 * {@code dcgmi diag} and {@code gpud scan} list each test with its result): the number where one thing was measured,
 * the median and both ends with where they were when many were (GPUs, nodes, pairs), and the benchmarks that did
 * not run with why. A benchmark that did not run is never a number.
 */
public final class MeasurementSummary {

    /** One line: what, where, the result in words ("19.5 Gb/s", "not measured: ..."); {@code measured} false for the latter. */
    public record Line(String benchmark, String where, String result, boolean measured) {}

    private MeasurementSummary() {
    }

    public static List<Line> of(ValidationReport r) {
        List<Line> out = new ArrayList<>();
        Map<String, List<Measurement>> byBenchmark = new LinkedHashMap<>();
        for (Measurement m : r.measurements()) byBenchmark.computeIfAbsent(m.benchmark(), b -> new ArrayList<>()).add(m);
        byBenchmark.forEach((benchmark, ms) -> out.add(ms.size() == 1
                ? new Line(benchmark, ms.getFirst().subject(), Quantities.number(ms.getFirst().value()) + " " + ms.getFirst().unit(), true)
                : spread(benchmark, ms)));
        out.addAll(pairs(r));
        // the same reason on many nodes (no GPU anywhere) is one line naming them
        Map<List<String>, List<String>> skipped = new LinkedHashMap<>();
        for (Finding f : r.benchFindings()) {
            if (notMeasured(f)) skipped.computeIfAbsent(List.of(name(f.id()), f.observed()), k -> new ArrayList<>()).add(f.subject());
        }
        skipped.forEach((k, where) -> out.add(new Line(k.get(0), where.size() == 1 ? where.getFirst()
                : where.size() + " nodes (" + FindingGroups.names(where) + ")", "not measured: " + k.get(1), false)));
        return out;
    }

    /** The lines as a terminal table, wrapped within its cells to {@code width}. */
    public static String table(List<Line> lines, int width) {
        TextTable t = new TextTable("BENCHMARK", "WHERE", "RESULT");
        for (Line l : lines) t.row(l.benchmark(), l.where(), l.result());
        StringBuilder out = new StringBuilder();
        t.appendTo(out, "  ", width);
        return out.toString();
    }

    /** The benchmark a finding's check ID stands for, as the measured lines name it. */
    private static String name(String checkId) {
        if (checkId.equals("bench.tcp.loopback") || checkId.equals("bench.gpu")) {
            return checkId.equals("bench.gpu") ? "GPU copy" : "loopback TCP";
        }
        return CheckId.of(checkId).map(id -> switch (id) {
            case BENCH_GPU_PCIE -> "GPU copy";
            case BENCH_NCCL_BUSBW -> "NCCL all_reduce busbw";
            case BENCH_STORAGE_SEQ -> "storage sequential";
            default -> checkId;
        }).orElse(checkId);
    }

    /** A benchmark finding that says its benchmark gave no number: skipped (no GPU), failed, or not run. */
    static boolean notMeasured(Finding f) {
        return f.severity() != Severity.PASS && (f.observed().contains("skipped") || f.observed().startsWith("no result")
                || f.observed().startsWith("needs ") || f.observed().contains("gave no findings"));
    }

    private static Line spread(String benchmark, List<Measurement> ms) {
        List<Measurement> sorted = ms.stream().sorted(Comparator.comparingDouble(Measurement::value)).toList();
        Measurement low = sorted.getFirst();
        Measurement high = sorted.getLast();
        String unit = low.unit();
        return new Line(benchmark, ms.size() + " measured", "median " + Quantities.number(median(sorted)) + " " + unit
                + ", lowest " + Quantities.number(low.value()) + " (" + low.subject() + "), highest "
                + Quantities.number(high.value()) + " (" + high.subject() + ")", true);
    }

    private static double median(List<Measurement> sorted) {
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2).value() : (sorted.get(n / 2 - 1).value() + sorted.get(n / 2).value()) / 2;
    }

    private record NetKind(String network, PairKind kind) {}

    /**
     * Per network and kind: the pairs with a number (each pair's last attempt, so a retest is not a second pair),
     * their median and worst, and how many the pair findings put below expect.
     */
    private static List<Line> pairs(ValidationReport r) {
        Map<NetKind, Map<String, PairResult>> latest = new LinkedHashMap<>();
        for (PairResult p : r.pairs()) {
            Map<String, PairResult> links = latest.computeIfAbsent(new NetKind(p.test().network(), p.test().kind()), k -> new HashMap<>());
            links.merge(p.test().subject(), p, (a, b) -> b.attempt() >= a.attempt() ? b : a);
        }
        List<Line> out = new ArrayList<>();
        latest.forEach((nk, links) -> {
            List<PairResult> measured = links.values().stream().filter(p -> p.outcome() instanceof PairOutcome.Measured)
                    .sorted(Comparator.comparingDouble(p -> value(p) * (nk.kind().higherIsBetter() ? 1 : -1))).toList();
            long bad = r.pairFindings().stream().filter(f -> f.id().equals(nk.kind().checkId())
                    && f.subject().startsWith(nk.network() + " ") && f.severity().compareTo(Severity.WARN) >= 0).count();
            String what = nk.kind().name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ');
            String where = nk.network() + ", " + links.size() + " pairs";
            if (measured.isEmpty()) {
                out.add(new Line("pairs " + what, where, "no pair gave a number", false));
                return;
            }
            double[] v = measured.stream().mapToDouble(MeasurementSummary::value).sorted().toArray();
            double median = v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
            PairResult worst = measured.getFirst();
            long noNumber = links.size() - measured.size();
            out.add(new Line("pairs " + what, where, "median " + Quantities.number(median) + " " + nk.kind().unit()
                    + ", worst " + Quantities.number(value(worst)) + " (" + worst.test().subject().substring(nk.network().length() + 1)
                    + "); " + (bad == 0 ? "all within expect" : bad + " below expect")
                    + (noNumber == 0 ? "" : "; " + noNumber + " without a number"), true));
        });
        return out;
    }

    private static double value(PairResult p) {
        return p.outcome() instanceof PairOutcome.Measured(double v) ? v : Double.NaN;
    }
}
