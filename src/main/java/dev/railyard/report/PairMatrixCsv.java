package dev.railyard.report;

import java.util.Locale;

/**
 * The full matrix of one network and kind as CSV, for clusters whose page shows it by groups: a header of node
 * names, then one row per node with the number of its pair with each earlier node (the last attempt, the one judged),
 * {@code x} where the test gave no number and empty where it never ran. Opens in any spreadsheet; a 512-node matrix
 * is about 1.5 MB.
 */
final class PairMatrixCsv {

    private PairMatrixCsv() {
    }

    /** "pairs-rail0-rdma_bandwidth.csv": the side file's name, beside index.html. */
    static String fileName(PairMatrix m) {
        return "pairs-" + Html.token(m.network()) + "-" + m.kind().name().toLowerCase(Locale.ROOT) + ".csv";
    }

    static String render(PairMatrix m) {
        int n = m.nodes().size();
        StringBuilder s = new StringBuilder(n * n * 4);
        s.append(quote(m.network() + " " + HeatmapSvg.label(m)));
        for (String node : m.nodes()) s.append(',').append(quote(node));
        s.append('\n');
        for (int row = 0; row < n; row++) {
            s.append(quote(m.nodes().get(row)));
            for (int col = 0; col < row; col++) {
                PairMatrix.Cell c = m.cell(row, col);
                s.append(',');
                if (c.tested()) s.append(c.value().map(v -> String.format(Locale.ROOT, "%.4g", v)).orElse("x"));
            }
            s.append('\n');
        }
        return s.toString();
    }

    private static String quote(String v) {
        return v.matches("[A-Za-z0-9_.:()/ µ-]*") ? v : "\"" + v.replace("\"", "\"\"") + "\"";
    }
}
