package dev.railyard.report;

import dev.railyard.model.PairKind;
import dev.railyard.model.Severity;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The pairs of one kind on one rail, or on several rails at once, folded into a lower triangle of node groups: each
 * cell is the worst pair between two groups on any of the rails (the worst verdict, then no number, then the number
 * furthest from its own rail's median, so a rail of half the speed does not outrank a broken pair on a fast one). One
 * bad pair among thousands still colours its cell, and the cell names the pair and its rail.
 */
record PairGroups(PairKind kind, List<PairMatrix> rails, List<String> nodes, int groupSize, List<GroupCell> cells) {

    PairGroups {
        rails = List.copyOf(rails);
        nodes = List.copyOf(nodes);
        cells = List.copyOf(cells);
    }

    /** The worst pair of two groups ({@code row} ≥ {@code col}), and how many of their pairs were tested. */
    record GroupCell(int row, int col, Optional<Worst> worst, int tested, int pairs, boolean culprit) {}

    /** A pair, the rail it ran on and that rail's median (taken once per rail: it sorts every number). */
    record Worst(PairMatrix rail, PairMatrix.Cell cell, double railMedian) {}

    int groups() {
        return (nodes.size() + groupSize - 1) / groupSize;
    }

    /** "node000…node015". */
    String groupName(int g) {
        int from = g * groupSize;
        int to = Math.min(nodes.size(), from + groupSize) - 1;
        return from == to ? nodes.get(from) : nodes.get(from) + "…" + nodes.get(to);
    }

    /** Whether a rail culprit stands on one of the rails. */
    boolean railCulprit() {
        return rails.stream().anyMatch(PairMatrix::railCulprit);
    }

    /** The matrices of one kind, their nodes on one axis in the order they first appear, in groups of {@code size}. */
    static PairGroups of(List<PairMatrix> rails, int size) {
        Set<String> axis = new LinkedHashSet<>();
        for (PairMatrix m : rails) axis.addAll(m.nodes());
        List<String> nodes = List.copyOf(axis);
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < nodes.size(); i++) index.put(nodes.get(i), i);
        int groups = (nodes.size() + size - 1) / size;
        Worst[][] worst = new Worst[groups][groups];
        int[][] tested = new int[groups][groups];
        int[][] pairs = new int[groups][groups];
        boolean[][] culprit = new boolean[groups][groups];
        for (PairMatrix m : rails) {
            int[] groupOf = m.nodes().stream().mapToInt(n -> index.get(n) / size).toArray();
            double median = m.median().orElse(0.0);
            for (PairMatrix.Cell c : m.cells()) {
                int gr = Math.max(groupOf[c.row()], groupOf[c.col()]);
                int gc = Math.min(groupOf[c.row()], groupOf[c.col()]);
                pairs[gr][gc]++;
                if (!c.tested()) continue;
                tested[gr][gc]++;
                culprit[gr][gc] |= c.culprit();
                Worst now = worst[gr][gc];
                if (now == null || worse(c, median, now.cell(), now.railMedian(), m.kind().higherIsBetter())) {
                    worst[gr][gc] = new Worst(m, c, median);
                }
            }
        }
        List<GroupCell> out = new ArrayList<>();
        for (int r = 0; r < groups; r++) {
            for (int c = 0; c <= r; c++) {
                if (pairs[r][c] > 0) {
                    out.add(new GroupCell(r, c, Optional.ofNullable(worst[r][c]), tested[r][c], pairs[r][c], culprit[r][c]));
                }
            }
        }
        return new PairGroups(rails.getFirst().kind(), rails, nodes, size, out);
    }

    /**
     * Worse verdict first; then a pair without a number; then the number furthest from its rail's median (the number
     * over the median, so rails of different speeds compare; the number itself where there is no median).
     */
    static boolean worse(PairMatrix.Cell a, double aMedian, PairMatrix.Cell b, double bMedian, boolean higherIsBetter) {
        int bySeverity = rank(a.severity()) - rank(b.severity());
        if (bySeverity != 0) return bySeverity > 0;
        Optional<Double> va = a.value();
        Optional<Double> vb = b.value();
        if (va.isEmpty() != vb.isEmpty()) return va.isEmpty();
        if (va.isEmpty()) return false;
        double ra = aMedian > 0 ? va.get() / aMedian : va.get();
        double rb = bMedian > 0 ? vb.get() / bMedian : vb.get();
        return higherIsBetter ? ra < rb : ra > rb;
    }

    private static int rank(Severity s) {
        return switch (s) {
            case PASS -> 0;
            case INFO -> 1;
            case UNKNOWN -> 2;
            case WARN -> 3;
            case FAIL -> 4;
        };
    }
}
