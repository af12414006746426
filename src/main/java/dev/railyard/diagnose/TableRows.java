package dev.railyard.diagnose;

import dev.railyard.bench.TextLines;

import java.util.regex.Pattern;

/**
 * Finds the line a parsed table row came from, for the evidence of a verdict: the parsers keep values, not line
 * numbers, and a row is known by its first two columns (perftest: bytes and iterations; nccl-tests: size and count)
 * whatever prefix a launcher put before it.
 */
final class TableRows {

    private TableRows() {
    }

    /** The 1-based number of the last line whose columns include {@code first} then {@code second}; 0 if none. */
    static int lastLineWith(TextLines text, long first, long second) {
        Pattern row = Pattern.compile("(?<![\\S])" + first + "\\s+" + second + "(?![\\S])");
        for (int i = text.lines().size(); i >= 1; i--) {
            if (row.matcher(text.line(i)).find()) return i;
        }
        return 0;
    }

    /** The 1-based number of the first line matching {@code regex}; 0 if none. */
    static int firstLineMatching(TextLines text, Pattern regex) {
        for (int i = 1; i <= text.lines().size(); i++) {
            if (regex.matcher(text.line(i)).find()) return i;
        }
        return 0;
    }
}
