package dev.railyard.report;

import dev.railyard.model.Severity;

import java.util.List;
import java.util.Locale;

/**
 * A {@link PairMatrix} too large to draw pair by pair, as a lower triangle of node groups: each cell is the worst
 * pair between two groups (the worst verdict, then the number furthest from the median), so one bad pair among
 * thousands still colours its cell, and the cell's tooltip names that pair. The page stays a few hundred cells wide
 * whatever the cluster; the full matrix goes to a side file.
 */
final class GroupedHeatmapSvg {

    /** At most this many groups a side: cells of ~30 px on a 1000 px page. */
    static final int MAX_GROUPS = 32;
    private static final int LABEL = 150;

    private GroupedHeatmapSvg() {
    }

    /** Nodes per group for a matrix of {@code n} nodes. */
    static int groupSize(int n) {
        return Math.max(1, (n + MAX_GROUPS - 1) / MAX_GROUPS);
    }

    /** The worst cell of one group pair, and how many of its pairs were tested. */
    record GroupCell(int row, int col, PairMatrix.Cell worst, int tested, int pairs, boolean culprit) {}

    static List<GroupCell> cells(PairMatrix m, int size) {
        int n = m.nodes().size();
        int groups = (n + size - 1) / size;
        PairMatrix.Cell[][] worst = new PairMatrix.Cell[groups][groups];
        int[][] tested = new int[groups][groups];
        int[][] pairs = new int[groups][groups];
        boolean[][] culprit = new boolean[groups][groups];
        double median = m.median().orElse(0.0);
        for (PairMatrix.Cell c : m.cells()) {
            int gr = c.row() / size;
            int gc = c.col() / size;
            pairs[gr][gc]++;
            if (!c.tested()) continue;
            tested[gr][gc]++;
            culprit[gr][gc] |= c.culprit();
            if (worst[gr][gc] == null || worse(c, worst[gr][gc], median, m.kind().higherIsBetter())) worst[gr][gc] = c;
        }
        List<GroupCell> out = new java.util.ArrayList<>();
        for (int r = 0; r < groups; r++) {
            for (int c = 0; c <= r; c++) {
                if (pairs[r][c] > 0) out.add(new GroupCell(r, c, worst[r][c], tested[r][c], pairs[r][c], culprit[r][c]));
            }
        }
        return out;
    }

    private static boolean worse(PairMatrix.Cell a, PairMatrix.Cell b, double median, boolean higherIsBetter) {
        int bySeverity = rank(a.severity()) - rank(b.severity());
        if (bySeverity != 0) return bySeverity > 0;
        if (a.value().isEmpty() != b.value().isEmpty()) return a.value().isEmpty();
        if (a.value().isEmpty()) return false;
        double da = a.value().get() - median;
        double db = b.value().get() - median;
        return higherIsBetter ? da < db : da > db;
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

    static String render(PairMatrix m, int size) {
        int n = m.nodes().size();
        int groups = (n + size - 1) / size;
        int cell = Math.max(12, Math.min(40, 900 / groups));
        int width = LABEL + groups * cell + 8;
        int height = groups * cell + LABEL / 2 + 40;
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT,
                "<svg class=\"heatmap grouped%s\" data-network=\"%s\" data-kind=\"%s\" data-group-size=\"%d\" "
                        + "xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" "
                        + "aria-label=\"%s\">\n", m.railCulprit() ? " rail-culprit" : "", Html.esc(m.network()), m.kind().name(),
                size, width, height, width, height, Html.esc(m.network() + " " + HeatmapSvg.label(m) + " by groups of " + size + " nodes")));
        for (int g = 0; g < groups; g++) {
            String name = groupName(m, g, size);
            s.append(String.format(Locale.ROOT, "<text class=\"axis\" x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>\n",
                    LABEL - 6, g * cell + cell / 2 + 4, Html.esc(name)));
            int x = LABEL + g * cell + cell / 2;
            int y = groups * cell + 8;
            s.append(String.format(Locale.ROOT,
                    "<text class=\"axis\" x=\"%d\" y=\"%d\" transform=\"rotate(-50 %d %d)\" text-anchor=\"end\">%s</text>\n",
                    x, y, x, y, Html.esc(name)));
        }
        for (GroupCell g : cells(m, size)) {
            int x = LABEL + g.col() * cell;
            int y = g.row() * cell;
            PairMatrix.Cell w = g.worst();
            String cls = w == null ? "untested" : w.value().isEmpty() ? "pair group nonumber sev-" + w.severity().name()
                    : "pair group sev-" + w.severity().name();
            s.append("<g class=\"cell ").append(cls).append(g.culprit() ? " culprit" : "").append("\" data-rows=\"")
                    .append(Html.esc(groupName(m, g.row(), size))).append("\" data-cols=\"").append(Html.esc(groupName(m, g.col(), size)))
                    .append("\"><title>").append(Html.esc(tooltip(m, g, size))).append("</title><rect x=\"").append(x + 1)
                    .append("\" y=\"").append(y + 1).append("\" width=\"").append(cell - 2).append("\" height=\"").append(cell - 2)
                    .append("\" rx=\"2\"/></g>\n");
        }
        return s.append("</svg>\n").toString();
    }

    /** "node000…node015". */
    static String groupName(PairMatrix m, int g, int size) {
        int from = g * size;
        int to = Math.min(m.nodes().size(), from + size) - 1;
        return from == to ? m.nodes().get(from) : m.nodes().get(from) + "…" + m.nodes().get(to);
    }

    private static String tooltip(PairMatrix m, GroupCell g, int size) {
        String groups = groupName(m, g.row(), size) + " × " + groupName(m, g.col(), size);
        if (g.worst() == null) return groups + ": none of " + g.pairs() + " pairs tested";
        return groups + ": " + g.tested() + " of " + g.pairs() + " pairs tested; worst " + HeatmapSvg.tooltip(m, g.worst());
    }
}
