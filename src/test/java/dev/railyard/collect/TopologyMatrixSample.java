package dev.railyard.collect;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The cells of a real `nvidia-smi topo -m` sample (test resource with two header lines), so tests can assert the
 * classes it printed: cell("GPU1", "NIC0") -> "PIX". NIC columns are renamed through the "NIC Legend".
 */
final class TopologyMatrixSample {

    private final Map<String, String> cells = new HashMap<>();

    private TopologyMatrixSample() {
    }

    /** The {@code index}-th matrix of the sample (some docs show several). */
    static TopologyMatrixSample load(String resource, int index) {
        List<String> lines;
        try (InputStream in = TopologyMatrixSample.class.getResourceAsStream(resource)) {
            if (in == null) throw new IllegalArgumentException("no test resource " + resource);
            lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().skip(2)
                    .map(l -> l.replace("\r", "")).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, String> legend = new HashMap<>();
        for (String l : lines) {
            String t = l.trim();
            if (t.matches("NIC[0-9]+: \\S+")) legend.put(t.substring(0, t.indexOf(':')), t.substring(t.indexOf(' ') + 1));
        }
        TopologyMatrixSample sample = new TopologyMatrixSample();
        int seen = -1;
        List<String> header = List.of();
        for (String l : lines) {
            String[] tokens = l.trim().split("\\s+");
            if (tokens[0].equals("GPU0") && l.startsWith(" ")) {
                seen++;
                header = new ArrayList<>(List.of(tokens));
                continue;
            }
            if (seen != index || header.isEmpty() || !tokens[0].matches("(GPU|NIC)[0-9]+")) continue;
            for (int c = 0; c < header.size() && c + 1 < tokens.length; c++) {
                String column = header.get(c);
                if (!column.matches("(GPU|NIC)[0-9]+")) break;
                sample.cells.put(rename(tokens[0], legend) + "/" + rename(column, legend), tokens[c + 1]);
            }
        }
        if (sample.cells.isEmpty()) throw new IllegalArgumentException("no matrix " + index + " in " + resource);
        return sample;
    }

    private static String rename(String name, Map<String, String> legend) {
        return legend.getOrDefault(name, name);
    }

    /** The printed class between a GPU ("GPU0") and a NIC by its legend name ("mlx5_0") or another GPU. */
    String cell(String row, String column) {
        String v = cells.get(row + "/" + column);
        if (v == null) throw new IllegalArgumentException("no cell " + row + "/" + column);
        return v;
    }
}
