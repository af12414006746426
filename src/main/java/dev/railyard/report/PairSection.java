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
        summaries(h, matrices);
        Map<String, List<PairMatrix>> byNetwork = matrices.stream()
                .collect(Collectors.groupingBy(PairMatrix::network, LinkedHashMap::new, Collectors.toList()));
        byNetwork.forEach((network, ms) -> {
            h.append("<div class=\"network\" data-network=\"").append(Html.esc(network)).append("\">\n<h3>")
                    .append(Html.esc(network)).append("</h3>\n<div class=\"maps\">\n");
            for (PairMatrix m : ms) {
                boolean grouped = grouped(m);
                int size = GroupedHeatmapSvg.groupSize(m.nodes().size());
                h.append("<figure id=\"").append(figureId(m)).append("\">").append(grouped ? GroupedHeatmapSvg.render(m, size) : HeatmapSvg.render(m)).append("<figcaption>")
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

    /**
     * Above {@link #FULL_NODES} nodes and with more than one rail, one heatmap per kind first that folds the rails
     * together (each group cell the worst pair on any rail), so the page opens on one picture however many rails and
     * nodes there are; each rail's own heatmap follows, and a click on a rail's name in the caption leads to it.
     */
    private static void summaries(StringBuilder h, List<PairMatrix> matrices) {
        Map<dev.railyard.model.PairKind, List<PairMatrix>> byKind = matrices.stream()
                .collect(Collectors.groupingBy(PairMatrix::kind, LinkedHashMap::new, Collectors.toList()));
        StringBuilder maps = new StringBuilder();
        byKind.forEach((kind, rails) -> {
            if (rails.size() < 2 || rails.stream().noneMatch(PairSection::grouped)) return;
            int nodes = (int) rails.stream().flatMap(m -> m.nodes().stream()).distinct().count();
            PairGroups all = PairGroups.of(rails, GroupedHeatmapSvg.groupSize(nodes));
            long tested = rails.stream().mapToLong(PairMatrix::testedCells).sum();
            long cells = rails.stream().mapToLong(m -> m.cells().size()).sum();
            maps.append("<figure class=\"all-rails\">").append(GroupedHeatmapSvg.render(all)).append("<figcaption>")
                    .append(Html.esc(GroupedHeatmapSvg.label(all))).append(" · ").append(rails.size()).append(" rails · ")
                    .append(tested).append(" of ").append(cells).append(" pairs tested<br>groups of ").append(all.groupSize())
                    .append(" nodes, each cell the worst pair between two groups on any rail (against its own rail's median) · each rail:");
            for (PairMatrix m : rails) {
                maps.append(" <a href=\"#").append(figureId(m)).append("\">").append(Html.esc(m.network())).append("</a>");
            }
            maps.append("</figcaption></figure>\n");
        });
        if (maps.isEmpty()) return;
        h.append("<div class=\"all-rails\" id=\"all-rails\">\n<h3>All rails</h3>\n<div class=\"maps\">\n").append(maps)
                .append("</div>\n</div>\n");
    }

    /** "map-rail0-rdma_bandwidth": the id of a matrix's figure, which the rail summary links to. */
    static String figureId(PairMatrix m) {
        return "map-" + Html.token(m.network()) + "-" + m.kind().name().toLowerCase(java.util.Locale.ROOT);
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
