package dev.railyard.report;

import dev.railyard.model.ValueText;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Left-aligned columns, two spaces apart, trailing blanks trimmed; the first row is the header. A table wider than
 * the terminal wraps its widest cells onto more lines instead of running off the edge, at spaces where it can and
 * inside a long word where it must.
 */
final class TextTable {

    /** A column is not squeezed below this: narrower, a reading breaks after every word. */
    private static final int MIN_COLUMN = 12;
    /** When whole words do not fit, columns give down to this, and their long words (MACs, addresses) break. */
    private static final int MIN_BROKEN = 6;

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
        appendTo(out, indent, Integer.MAX_VALUE);
    }

    void appendTo(StringBuilder out, String indent, int maxWidth) {
        for (List<String> row : lines(indent, maxWidth)) row.forEach(l -> out.append(l).append('\n'));
    }

    /** Each row (the header first) as the lines it takes once its cells are wrapped to fit {@code maxWidth}. */
    List<List<String>> lines(String indent, int maxWidth) {
        int columns = rows.stream().mapToInt(List::size).max().orElse(0);
        int[] width = new int[columns];
        int[] longestWord = new int[columns];
        for (List<String> r : rows) {
            for (int c = 0; c < r.size(); c++) {
                width[c] = Math.max(width[c], r.get(c).length());
                for (String w : r.get(c).split(" ")) longestWord[c] = Math.max(longestWord[c], w.length());
            }
        }
        int[] least = new int[columns];
        for (int c = 0; c < columns; c++) least[c] = Math.max(longestWord[c], Math.min(MIN_COLUMN, width[c]));
        fit(width, least, maxWidth - indent.length());
        // still wider than the terminal: break long words inside their cells rather than let the terminal fold
        // the whole line onto the next one
        for (int c = 0; c < columns; c++) least[c] = Math.min(width[c], MIN_BROKEN);
        fit(width, least, maxWidth - indent.length());
        List<List<String>> out = new ArrayList<>();
        for (List<String> r : rows) {
            List<List<String>> cells = new ArrayList<>();
            int height = 1;
            for (int c = 0; c < r.size(); c++) {
                List<String> wrapped = r.get(c).length() <= width[c] ? List.of(r.get(c)) : Wrap.breaking(r.get(c), width[c]);
                cells.add(wrapped);
                height = Math.max(height, wrapped.size());
            }
            List<String> rowLines = new ArrayList<>();
            for (int h = 0; h < height; h++) {
                StringBuilder line = new StringBuilder(indent);
                for (int c = 0; c < cells.size(); c++) {
                    String cell = h < cells.get(c).size() ? cells.get(c).get(h) : "";
                    line.append(cell);
                    if (c < cells.size() - 1) line.append(" ".repeat(Math.max(0, width[c] - cell.length()) + 2));
                }
                rowLines.add(line.toString().stripTrailing());
            }
            out.add(rowLines);
        }
        return out;
    }

    /**
     * Narrows the widest column that can still give (not below its longest word, nor {@link #MIN_COLUMN}), one
     * character at a time, until the row fits or no column can give.
     */
    private static void fit(int[] width, int[] least, int available) {
        int gaps = 2 * Math.max(0, width.length - 1);
        while (Arrays.stream(width).sum() + gaps > available) {
            int widest = -1;
            for (int c = 0; c < width.length; c++) {
                if (width[c] > least[c] && (widest < 0 || width[c] > width[widest])) widest = c;
            }
            if (widest < 0) return;
            width[widest]--;
        }
    }
}
