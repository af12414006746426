package dev.railyard.report;

import dev.railyard.model.Culprit;
import dev.railyard.model.Finding;
import dev.railyard.model.NodeOutcome;
import dev.railyard.model.NodeStatus;
import dev.railyard.model.PairKind;
import dev.railyard.model.PairOutcome;
import dev.railyard.model.PairResult;
import dev.railyard.model.Severity;
import dev.railyard.model.ValidationReport;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The pair results of one network and one kind as a lower-triangle matrix: one cell per unordered pair of its nodes,
 * judged by the pair finding (id = the kind's check ID, subject = the pair's subject) that compared it with expect.
 * Every form of the report (HTML heatmap, Markdown table) draws from this, so they agree.
 */
public record PairMatrix(String network, PairKind kind, List<String> nodes, List<Cell> cells, boolean railCulprit) {

    public PairMatrix {
        nodes = List.copyOf(nodes);
        cells = List.copyOf(cells);
    }

    /**
     * One unordered pair: {@code row} &gt; {@code col} index into {@link #nodes()}. {@code attempts} is every run of
     * the pair in order (the last is the one judged; empty when it was never tested); {@code severity} comes from its
     * own finding, else PASS when its network and kind were judged (validate writes a finding per bad pair and one
     * per network when all are good, so a judged pair without one was within expect), INFO when measured but never
     * judged, UNKNOWN when there is no number. {@code expected} is the bar as the findings word it, "" if none.
     */
    public record Cell(int row, int col, String a, String b, List<PairResult> attempts, Severity severity,
                       Optional<Finding> finding, String expected, boolean culprit) {

        public Cell {
            attempts = List.copyOf(attempts);
        }

        public Optional<PairResult> last() {
            return attempts.isEmpty() ? Optional.empty() : Optional.of(attempts.getLast());
        }

        public Optional<Double> value() {
            return last().map(PairResult::outcome).flatMap(o -> o instanceof PairOutcome.Measured(double v)
                    ? Optional.of(v) : Optional.empty());
        }

        public boolean tested() {
            return !attempts.isEmpty();
        }

        /** "rail0 a<->b", as PairTest.subject() writes it. */
        public String subject(String network) {
            return network + " " + (a.compareTo(b) <= 0 ? a + "<->" + b : b + "<->" + a);
        }
    }

    private static final Comparator<PairResult> BY_ATTEMPT =
            Comparator.comparingInt(PairResult::attempt).thenComparing(PairResult::startedAt);

    /** Cells whose pair was tested at least once (the heatmap's coloured cells). */
    public long testedCells() {
        return cells.stream().filter(Cell::tested).count();
    }

    /** The median over the tested pairs' judged numbers: the value a person compares each cell with. */
    public Optional<Double> median() {
        double[] v = cells.stream().map(Cell::value).flatMap(Optional::stream).mapToDouble(Double::doubleValue)
                .sorted().toArray();
        if (v.length == 0) return Optional.empty();
        return Optional.of(v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2);
    }

    /** One matrix per network and kind, in the order the report's pairs first name them. */
    public static List<PairMatrix> of(ValidationReport report) {
        Map<String, Map<PairKind, List<PairResult>>> grouped = new LinkedHashMap<>();
        for (PairResult r : report.pairs()) {
            grouped.computeIfAbsent(r.test().network(), n -> new LinkedHashMap<>())
                    .computeIfAbsent(r.test().kind(), k -> new ArrayList<>()).add(r);
        }
        List<PairMatrix> out = new ArrayList<>();
        grouped.forEach((network, byKind) -> {
            List<PairResult> all = byKind.values().stream().flatMap(List::stream).toList();
            List<String> nodes = axis(report, all);
            byKind.forEach((kind, results) -> out.add(build(report, network, kind, nodes, results)));
        });
        return out;
    }

    /**
     * The nodes in report order that took part in the network's pairs, plus those that did not complete: a node
     * that could not be reached has no results, and its empty row is the point.
     */
    private static List<String> axis(ValidationReport report, List<PairResult> results) {
        Set<String> inPairs = new LinkedHashSet<>();
        for (PairResult r : results) {
            inPairs.add(r.test().client());
            inPairs.add(r.test().server());
        }
        List<String> nodes = new ArrayList<>();
        for (NodeOutcome n : report.nodes()) {
            if (inPairs.remove(n.node()) || n.status() != NodeStatus.COMPLETED) nodes.add(n.node());
        }
        nodes.addAll(inPairs);
        return nodes;
    }

    private static PairMatrix build(ValidationReport report, String network, PairKind kind, List<String> nodes,
                                    List<PairResult> results) {
        boolean rail = report.culprits().stream()
                .anyMatch(c -> c.network().equals(network) && c.kind() == dev.railyard.model.CulpritKind.RAIL);
        // Indexed once, so a 512-node run (130,816 pairs per kind) renders in one pass, not pairs × results.
        Map<String, List<PairResult>> byLink = new java.util.HashMap<>();
        for (PairResult r : results) byLink.computeIfAbsent(link(r.test().client(), r.test().server()), k -> new ArrayList<>()).add(r);
        Map<String, Finding> findings = new java.util.HashMap<>();
        List<Finding> group = new ArrayList<>();
        for (Finding f : report.pairFindings()) {
            if (!f.id().equals(kind.checkId())) continue;
            if (f.subject().equals(network) || f.subject().startsWith(network + " ")) group.add(f);
            findings.put(f.subject(), f);
        }
        String groupExpected = group.isEmpty() ? "" : group.getFirst().expected();
        List<Culprit> blaming = report.culprits().stream().filter(c -> c.network().equals(network)).toList();
        List<Cell> cells = new ArrayList<>(nodes.size() * (nodes.size() - 1) / 2);
        for (int row = 1; row < nodes.size(); row++) {
            for (int col = 0; col < row; col++) {
                String a = nodes.get(row);
                String b = nodes.get(col);
                List<PairResult> attempts = byLink.getOrDefault(link(a, b), List.of());
                if (attempts.size() > 1) attempts = attempts.stream().sorted(BY_ATTEMPT).toList();
                Optional<Finding> finding = attempts.isEmpty() ? Optional.empty()
                        : Optional.ofNullable(findings.get(attempts.getFirst().test().subject()));
                Severity severity = finding.map(Finding::severity)
                        .orElse(attempts.isEmpty() ? Severity.UNKNOWN
                                : !(attempts.getLast().outcome() instanceof PairOutcome.Measured) ? Severity.UNKNOWN
                                : group.isEmpty() ? Severity.INFO : Severity.PASS);
                String expected = finding.map(Finding::expected).orElse(groupExpected);
                boolean bad = !attempts.isEmpty() && severity != Severity.PASS && severity != Severity.INFO;
                boolean culprit = bad && blaming.stream().anyMatch(c -> blames(c, a, b));
                cells.add(new Cell(row, col, a, b, attempts, severity, finding, expected, culprit));
            }
        }
        return new PairMatrix(network, kind, nodes, cells, rail);
    }

    /** The cell of nodes {@code row} &gt; {@code col}: cells are stored row by row, so its index is computed. */
    public Cell cell(int row, int col) {
        return cells.get(row * (row - 1) / 2 + col);
    }

    private static String link(String x, String y) {
        return x.compareTo(y) <= 0 ? x + "\u0000" + y : y + "\u0000" + x;
    }

    static boolean blames(Culprit c, String a, String b) {
        return switch (c.kind()) {
            case NODE -> c.nodes().contains(a) || c.nodes().contains(b);
            case LINK -> c.nodes().contains(a) && c.nodes().contains(b);
            case RAIL -> true;
        };
    }
}
