package dev.railyard.bench;

import java.util.List;
import java.util.regex.Pattern;

/**
 * Tool output split into lines with what terminals and Windows add taken away: a UTF-8 byte-order mark, ANSI colour
 * codes and carriage returns. Parsers report 1-based line numbers into this list.
 */
public record TextLines(List<String> lines) {

    private static final Pattern ANSI = Pattern.compile("\u001B\\[[0-9;?]*[A-Za-z]");

    public TextLines {
        lines = lines instanceof PackedLines ? lines : List.copyOf(lines); // packed lines are immutable already
    }

    public static TextLines of(String text) {
        String t = text.startsWith("\uFEFF") ? text.substring(1) : text;
        t = ANSI.matcher(t).replaceAll("");
        return new TextLines(t.lines().map(l -> l.replace("\r", "")).toList());
    }

    public String line(int oneBased) {
        return oneBased >= 1 && oneBased <= lines.size() ? lines.get(oneBased - 1) : "";
    }

    /** The 1-based number of the first line containing {@code needle}, or 0. */
    public int find(String needle) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains(needle)) return i + 1;
        }
        return 0;
    }

    /** The 1-based number of the first non-blank line, or 0 for blank text. */
    public int firstNonBlank() {
        for (int i = 0; i < lines.size(); i++) {
            if (!lines.get(i).isBlank()) return i + 1;
        }
        return 0;
    }

    /** How many lines hold more than white space. */
    public int nonBlank() {
        int n = 0;
        for (int i = 0; i < lines.size(); i++) {
            if (!(lines instanceof PackedLines p ? p.isBlank(i) : lines.get(i).isBlank())) n++;
        }
        return n;
    }

    public String joined() {
        return String.join("\n", lines);
    }
}
