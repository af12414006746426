package dev.railyard.report;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The pairs section of the page: one heatmap per network and kind, each captioned with how many pairs were tested,
 * their median and the bar a pair was judged against, then the legend (whose colours are the cells' own). Above
 * {@link #FULL_NODES} nodes a matrix is drawn by groups (the worst pair of each) and the whole of it goes to a CSV
 * beside the page. Left out when the run tested no pairs.
 */
final class PairSection {

    private PairSection() {
    }

    static void render(StringBuilder h, List<PairMatrix> matrices) {
        if (matrices.isEmpty()) return;
        h.append("<section id=\"pairs\">\n<h2>Pairs</h2>\n");
        Map<String, List<PairMatrix>> byNetwork = matrices.stream()
                .collect(Collectors.groupingBy(PairMatrix::network, LinkedHashMap::new, Collectors.toList()));
        byNetwork.forEach((network, ms) -> {
            h.append("<div class=\"network\" data-network=\"").append(Html.esc(network)).append("\">\n<h3>")
                    .append(Html.esc(network)).append("</h3>\n<div class=\"maps\">\n");
            for (PairMatrix m : ms) {
                boolean grouped = grouped(m);
                int size = GroupedHeatmapSvg.groupSize(m.nodes().size());
                h.append("<figure>").append(grouped ? GroupedHeatmapSvg.render(m, size) : HeatmapSvg.render(m)).append("<figcaption>")
                        .append(Html.esc(HeatmapSvg.label(m))).append(" · ").append(m.testedCells()).append(" of ")
                        .append(m.cells().size()).append(" pairs tested")
                        .append(m.median().map(v -> " · median " + Quantities.number(v) + " " + m.kind().unit()).orElse(""))
                        .append(bar(m).map(b -> " · <span class=\"bar\">bar " + Html.esc(b) + "</span>").orElse(""));
                if (grouped) {
                    h.append("<br>groups of ").append(size).append(" nodes, each cell the worst pair between two groups · "
                            + "every pair: <a href=\"").append(Html.esc(PairMatrixCsv.fileName(m))).append("\">")
                            .append(Html.esc(PairMatrixCsv.fileName(m))).append("</a>");
                }
                h.append("</figcaption></figure>\n");
            }
            h.append("</div>\n</div>\n");
        });
        h.append(LEGEND).append("</section>\n");
    }

    /** Above this many nodes a matrix is drawn by groups of nodes, and written whole to a CSV beside the page. */
    static final int FULL_NODES = 64;

    static boolean grouped(PairMatrix m) {
        return m.nodes().size() > FULL_NODES;
    }

    /** The bar the network's pairs were judged against, as their findings word it ("≥ 19.0 Gb/s (0.5 × median)"). */
    static java.util.Optional<String> bar(PairMatrix m) {
        return m.cells().stream().map(PairMatrix.Cell::expected).filter(e -> !e.isEmpty()).findFirst();
    }

    static final String LEGEND = "<p class=\"legend\"><span class=\"key sev-PASS\"></span>met the bar "
            + "<span class=\"key sev-WARN\"></span>below the bar (warn) <span class=\"key sev-FAIL\"></span>below the bar (fail) "
            + "<span class=\"key nonumber\"></span>no number <span class=\"key sev-INFO\"></span>not judged "
            + "<span class=\"key untested\"></span>not tested <span class=\"key culprit\"></span>culprit · "
            + "hover a cell for its numbers</p>\n";
}
