package dev.railyard.report;

import dev.railyard.model.Culprit;
import dev.railyard.model.Severity;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A culprit's evidence as a short table: the bad pairs it explains, worst first, each with its number against the
 * bar, read from the same matrix cells the heatmap draws (so the two agree). A rail's culprit explains every pair of
 * its network; the table shows the worst few and counts the rest.
 */
final class CulpritEvidence {

    /** Rows shown; the heatmap marks every one. */
    static final int ROWS = 8;

    private CulpritEvidence() {
    }

    private record Row(PairMatrix m, PairMatrix.Cell cell, double badness) {}

    static void table(StringBuilder h, Culprit c, List<PairMatrix> matrices) {
        List<Row> rows = new ArrayList<>();
        for (PairMatrix m : matrices) {
            if (!m.network().equals(c.network())) continue;
            // once per matrix: a rail's culprit has every one of its pairs (130,816 at 512 nodes) to rank
            double median = m.median().orElse(Double.NaN);
            for (PairMatrix.Cell cell : m.cells()) {
                if (cell.tested() && cell.severity().atLeast(Severity.UNKNOWN) && PairMatrix.blames(c, cell.a(), cell.b())) {
                    rows.add(new Row(m, cell, badness(m, cell, median)));
                }
            }
        }
        if (rows.isEmpty()) return;
        // no number first, then the furthest below (or above, for latency) its kind's median
        rows.sort(Comparator.comparingDouble(Row::badness).reversed());
        h.append("<table class=\"evidence\">\n<thead><tr><th>pair</th><th>test</th><th>measured</th><th>bar</th>"
                + "<th>verdict</th></tr></thead>\n<tbody>\n");
        for (Row row : rows.subList(0, Math.min(ROWS, rows.size()))) {
            PairMatrix.Cell cell = row.cell();
            h.append("<tr><td>").append(Html.esc(cell.subject(row.m().network()).substring(row.m().network().length() + 1)))
                    .append("</td><td>").append(Html.esc(HeatmapSvg.label(row.m()))).append("</td><td>")
                    .append(Html.esc(cell.last().map(Quantities::outcome).orElse("–")))
                    .append(cell.attempts().size() > 1 ? " (retested)" : "").append("</td><td>")
                    .append(Html.esc(cell.expected())).append("</td><td><span class=\"badge sev-").append(cell.severity().name())
                    .append("\">").append(cell.severity().name()).append("</span></td></tr>\n");
        }
        h.append("</tbody>\n</table>\n");
        if (rows.size() > ROWS) {
            h.append("<p class=\"more\">and ").append(rows.size() - ROWS).append(" more pairs; the heatmap outlines each</p>\n");
        }
    }

    private static double badness(PairMatrix m, PairMatrix.Cell cell, double median) {
        if (cell.value().isEmpty()) return Double.MAX_VALUE;
        if (!(median > 0)) return 0;
        double ratio = cell.value().get() / median;
        return m.kind().higherIsBetter() ? 1 - ratio : ratio - 1;
    }
}
