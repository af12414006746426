package dev.railyard.report;

import dev.railyard.model.ValueText;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Left-aligned columns, two spaces apart, trailing blanks trimmed; the first row is the header. */
final class TextTable {

    private final List<List<String>> rows = new ArrayList<>();

    TextTable(String... header) {
        rows.add(List.of(header));
    }

    /** Cells come from node trees: control characters are escaped and long values cut before widths are taken. */
    TextTable row(String... cells) {
        rows.add(Arrays.stream(cells).map(ValueText::printable).toList());
        return this;
    }

    void appendTo(StringBuilder out, String indent) {
        int columns = rows.stream().mapToInt(List::size).max().orElse(0);
        int[] width = new int[columns];
        for (List<String> r : rows) {
            for (int c = 0; c < r.size(); c++) width[c] = Math.max(width[c], r.get(c).length());
        }
        for (List<String> r : rows) {
            StringBuilder line = new StringBuilder(indent);
            for (int c = 0; c < r.size(); c++) {
                line.append(r.get(c));
                if (c < r.size() - 1) line.append(" ".repeat(width[c] - r.get(c).length() + 2));
            }
            out.append(line.toString().stripTrailing()).append('\n');
        }
    }
}
