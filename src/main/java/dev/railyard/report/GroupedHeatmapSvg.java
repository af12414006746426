package dev.railyard.report;

import java.util.Locale;
import java.util.stream.Collectors;

/**
 * {@link PairGroups} as an inline SVG: a lower triangle of node groups, each cell coloured by the worst pair between
 * two groups and its tooltip naming that pair (and its rail), so the page stays a few hundred cells wide whatever the
 * cluster; the full matrix goes to a side file. Drawn for one rail too large to draw pair by pair, and for all rails
 * of a kind at once.
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

    /** One rail's matrix by groups of {@code size} nodes. */
    static String render(PairMatrix m, int size) {
        return render(PairGroups.of(java.util.List.of(m), size));
    }

    static String render(PairGroups p) {
        int groups = p.groups();
        int size = p.groupSize();
        int cell = Math.max(12, Math.min(40, 900 / groups));
        int width = LABEL + groups * cell + 8;
        int height = groups * cell + LABEL / 2 + 40;
        boolean oneRail = p.rails().size() == 1;
        String networks = p.rails().stream().map(PairMatrix::network).collect(Collectors.joining(" "));
        String what = (oneRail ? networks : "all rails") + " " + label(p) + " by groups of " + size + " nodes";
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT,
                "<svg class=\"heatmap grouped%s%s\" %s=\"%s\" data-kind=\"%s\" data-group-size=\"%d\" "
                        + "xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" "
                        + "aria-label=\"%s\">\n", oneRail ? "" : " all-rails", p.railCulprit() ? " rail-culprit" : "",
                oneRail ? "data-network" : "data-networks", Html.esc(networks), p.kind().name(), size, width, height, width,
                height, Html.esc(what)));
        for (int g = 0; g < groups; g++) {
            String name = p.groupName(g);
            s.append(String.format(Locale.ROOT, "<text class=\"axis\" x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>\n",
                    LABEL - 6, g * cell + cell / 2 + 4, Html.esc(name)));
            int x = LABEL + g * cell + cell / 2;
            int y = groups * cell + 8;
            s.append(String.format(Locale.ROOT,
                    "<text class=\"axis\" x=\"%d\" y=\"%d\" transform=\"rotate(-50 %d %d)\" text-anchor=\"end\">%s</text>\n",
                    x, y, x, y, Html.esc(name)));
        }
        for (PairGroups.GroupCell g : p.cells()) {
            int x = LABEL + g.col() * cell;
            int y = g.row() * cell;
            String cls = g.worst().map(w -> w.cell().value().isEmpty()
                    ? "pair group nonumber sev-" + w.cell().severity().name()
                    : "pair group sev-" + w.cell().severity().name()).orElse("untested");
            s.append("<g class=\"cell ").append(cls).append(g.culprit() ? " culprit" : "").append("\" data-rows=\"")
                    .append(Html.esc(p.groupName(g.row()))).append("\" data-cols=\"").append(Html.esc(p.groupName(g.col())));
            if (!oneRail) g.worst().ifPresent(w -> s.append("\" data-network=\"").append(Html.esc(w.rail().network())));
            s.append("\"><title>").append(Html.esc(tooltip(p, g))).append("</title><rect x=\"").append(x + 1)
                    .append("\" y=\"").append(y + 1).append("\" width=\"").append(cell - 2).append("\" height=\"").append(cell - 2)
                    .append("\" rx=\"2\"/></g>\n");
        }
        return s.append("</svg>\n").toString();
    }

    static String label(PairGroups p) {
        return p.kind().name().toLowerCase(Locale.ROOT).replace('_', ' ') + " (" + p.kind().unit() + ")";
    }

    private static String tooltip(PairGroups p, PairGroups.GroupCell g) {
        String groups = p.groupName(g.row()) + " × " + p.groupName(g.col());
        String over = p.rails().size() == 1 ? "" : " on " + p.rails().size() + " rails";
        if (g.worst().isEmpty()) return groups + ": none of " + g.pairs() + " pairs tested" + over;
        PairGroups.Worst w = g.worst().get();
        return groups + ": " + g.tested() + " of " + g.pairs() + " pairs tested" + over + "; worst "
                + HeatmapSvg.tooltip(w.rail(), w.cell());
    }
}
