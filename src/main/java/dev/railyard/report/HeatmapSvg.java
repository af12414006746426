package dev.railyard.report;

import dev.railyard.model.PairResult;
import dev.railyard.model.Severity;

import java.util.Locale;
import java.util.stream.Collectors;

/**
 * One {@link PairMatrix} as an inline SVG: a lower triangle of square cells, coloured by the verdict against expect,
 * the value written in the cell, and a {@code <title>} tooltip with every attempt's number. Culprit cells get a thick
 * outline (class {@code culprit}); cells of pairs never tested are dashed grey (class {@code untested}).
 */
final class HeatmapSvg {

    private static final int MAX_CELL = 56;
    private static final int LABEL = 120;

    private HeatmapSvg() {
    }

    static String render(PairMatrix m) {
        int n = m.nodes().size();
        // Up to 18 nodes cells are 56 px with the number inside; larger clusters shrink to fit ~1000 px and keep
        // the number in the tooltip only.
        int cell = Math.max(4, Math.min(MAX_CELL, 1000 / Math.max(1, n - 1)));
        boolean numbers = cell >= 40;
        int width = LABEL + Math.max(1, n - 1) * cell + 8;
        int height = Math.max(1, n - 1) * cell + LABEL / 2 + 16;
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT,
                "<svg class=\"heatmap%s\" data-network=\"%s\" data-kind=\"%s\" xmlns=\"http://www.w3.org/2000/svg\" "
                        + "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"%s\">\n",
                m.railCulprit() ? " rail-culprit" : "", Html.esc(m.network()), m.kind().name(), width, height, width,
                height, Html.esc(m.network() + " " + label(m) + " per pair")));
        // Rows are nodes 1..n-1 (left labels), columns nodes 0..n-2 (bottom labels): the lower triangle.
        // Names fit beside rows of 12 px and more; below that the tooltips name each pair.
        for (int row = 1; row < n && cell >= 12; row++) {
            s.append(String.format(Locale.ROOT, "<text class=\"axis\" x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>\n",
                    LABEL - 6, (row - 1) * cell + cell / 2 + 4, Html.esc(m.nodes().get(row))));
        }
        for (int col = 0; col < n - 1 && cell >= 12; col++) {
            int x = LABEL + col * cell + cell / 2;
            int y = (n - 1) * cell + 8;
            s.append(String.format(Locale.ROOT,
                    "<text class=\"axis\" x=\"%d\" y=\"%d\" transform=\"rotate(-50 %d %d)\" text-anchor=\"end\">%s</text>\n",
                    x, y, x, y, Html.esc(m.nodes().get(col))));
        }
        // Plain appends rather than String.format: this loop runs once per pair, 130,816 times for 512 nodes.
        for (PairMatrix.Cell c : m.cells()) {
            int x = LABEL + c.col() * cell;
            int y = (c.row() - 1) * cell;
            // a tested pair without a number is grey whatever its finding says, as the legend's "no number" key
            s.append("<g class=\"cell ").append(!c.tested() ? "untested" : c.value().isEmpty() ? "pair nonumber sev-" + c.severity().name()
                            : "pair sev-" + c.severity().name())
                    .append(c.culprit() ? " culprit" : "").append("\" data-a=\"").append(Html.esc(c.a()))
                    .append("\" data-b=\"").append(Html.esc(c.b())).append("\"><title>").append(Html.esc(tooltip(m, c)))
                    .append("</title>");
            int gap = cell >= 20 ? 2 : 0;
            s.append("<rect x=\"").append(x + gap).append("\" y=\"").append(y + gap).append("\" width=\"")
                    .append(cell - 2 * gap).append("\" height=\"").append(cell - 2 * gap).append("\" rx=\"")
                    .append(gap + gap / 2).append("\"/>");
            if (numbers) {
                String text = c.tested() ? c.value().map(Quantities::number).orElse("×") : "–";
                s.append("<text x=\"").append(x + cell / 2).append("\" y=\"").append(y + cell / 2 + 4)
                        .append("\" text-anchor=\"middle\">").append(Html.esc(text)).append("</text>");
            }
            s.append("</g>\n");
        }
        return s.append("</svg>\n").toString();
    }

    static String label(PairMatrix m) {
        return m.kind().name().toLowerCase(Locale.ROOT).replace('_', ' ') + " (" + m.kind().unit() + ")";
    }

    /** "rail0 a<->b rdma bandwidth: 9.12 Gb/s (retest of 9.05 Gb/s); expected ≥ 36 Gb/s; FAIL". */
    static String tooltip(PairMatrix m, PairMatrix.Cell c) {
        String subject = c.subject(m.network()) + " " + label(m);
        if (!c.tested()) return subject + ": not tested";
        PairResult last = c.last().orElseThrow();
        StringBuilder t = new StringBuilder(subject).append(": ").append(Quantities.outcome(last));
        if (c.attempts().size() > 1) {
            t.append(" (earlier: ").append(c.attempts().subList(0, c.attempts().size() - 1).stream()
                    .map(Quantities::outcome).collect(Collectors.joining(", "))).append(')');
        }
        if (!c.expected().isEmpty()) t.append("; expected ").append(c.expected());
        t.append("; ").append(c.severity() == Severity.INFO && c.finding().isEmpty() ? "not judged" : c.severity().name());
        if (c.culprit()) t.append("; culprit");
        return t.toString();
    }
}
