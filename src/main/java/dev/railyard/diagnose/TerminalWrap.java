package dev.railyard.diagnose;

import dev.railyard.bench.PackedLines;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Joins the lines a terminal broke: copied from an 80-column terminal, a 115-character nccl-tests row comes as 80
 * characters and then 35 on the next line. A break is joined only where it is plain. The paste's longest lines must
 * be exactly one of the usual terminal widths ({@link #WIDTHS}), none longer; the broken line must have exactly that
 * width and the line before it must not (else it is a row of a table whose rows are all that wide); the next line
 * must not be blank nor wider. "Lines that surely start" below are those not after a line of that width. The next
 * line continues the broken one when it does not start with the word nearly every line starts with
 * ({@code "sockperf:"}), is not a table row (two in three columns numbers) after a line that is none and ends
 * between words, and
 * <ul>
 * <li>it closes a quote, parenthesis or bracket the broken line left open ({@code "system_info": "Linux ... 10:06:55}
 * then {@code  PDT 2021 x86_64",}), or</li>
 * <li>it starts unlike any line that surely starts ({@code "len off the bus"} in a kernel log whose lines start
 * {@code "[  3.1]"}), or</li>
 * <li>its first two words are shaped unlike those of any line that surely starts, and the break falls inside a
 * word or the next line is no table row, or</li>
 * <li>the broken line is a table row and the next line holds fewer columns, or another row nearby was broken the
 * same way.</li>
 * </ul>
 * Where only one line starts at that width (as likely a line that long), it is joined only by the first rule, or in
 * a log whose lines nearly all start alike by the second. After a piece that continued a line and is again exactly
 * as wide, the next line continues too: a line exactly twice the width is rarer than one longer. The joined line takes the first piece's place and the pieces after it
 * become blank lines, so line numbers stay those of the paste.
 */
final class TerminalWrap {

    /** Widths terminals are left at; a clean text whose longest lines are exactly this wide is rare. */
    static final Set<Integer> WIDTHS = Set.of(80, 100, 120, 132, 160, 200);

    private static final java.util.regex.Pattern NUMBER =
            java.util.regex.Pattern.compile("[-+]?\\d+(?:\\.\\d+)?(?:[eE][-+]?\\d+)?|N/A");

    /** Enough lines that surely start to know how lines start. */
    private static final int SAMPLE = 2000;

    private final List<String> lines;
    private final int width;
    private final Set<String> starts = new HashSet<>(), twoWordStarts = new HashSet<>();
    /** The first word, and the shape, nine in ten lines that surely start begin with, or "". */
    private final String commonWord, commonShape;
    /** More than one line starts at the width; with one, only a log whose lines start alike is joined. */
    private final boolean several;

    private TerminalWrap(List<String> lines, int width, boolean several) {
        this.lines = lines;
        this.width = width;
        this.several = several;
        Map<String, Integer> words = new HashMap<>(), shapes = new HashMap<>();
        int n = 0;
        for (int i = 0; i < lines.size() && n < SAMPLE; i++) {
            if (lines.get(i).isBlank() || !surelyStarts(i)) continue;
            n++;
            String l = lines.get(i);
            starts.add(shape(l, 1));
            twoWordStarts.add(shape(l, 2));
            words.merge(firstWord(l), 1, Integer::sum);
            shapes.merge(shape(l, 1), 1, Integer::sum);
        }
        this.commonWord = mostOf(words, n);
        this.commonShape = mostOf(shapes, n);
    }

    /** The key counted in nine in ten of {@code n} (three or more), or "". */
    private static String mostOf(Map<String, Integer> counts, int n) {
        for (var e : counts.entrySet()) if (n >= 3 && e.getValue() * 10 >= n * 9) return e.getKey();
        return "";
    }

    static List<String> unwrap(List<String> lines, Set<String> removed) {
        int width = 0;
        for (int i = 0; i < lines.size(); i++) width = Math.max(width, length(lines, i));
        if (!WIDTHS.contains(width)) return lines;
        int broken = 0;
        for (int i = 0; i < lines.size() && broken < 2; i++) {
            if (length(lines, i) == width && (i == 0 || length(lines, i - 1) != width)) broken++;
        }
        List<String> out = new TerminalWrap(lines, width, broken > 1).join();
        if (out != lines) removed.add("terminal line breaks at column " + width);
        return out;
    }

    private List<String> join() {
        List<String> out = null;
        for (int i = 0; i < lines.size(); i++) {
            if (length(lines, i) != width || !surelyStarts(i)) continue;
            int end = i; // the last piece of the line that starts at i
            while (end + 1 < lines.size() && length(lines, end) == width && continues(i, end)) end++;
            if (end == i) continue;
            if (out == null) out = new ArrayList<>(lines);
            StringBuilder joined = new StringBuilder(lines.get(i));
            for (int j = i + 1; j <= end; j++) {
                joined.append(lines.get(j));
                out.set(j, "");
            }
            out.set(i, joined.toString());
            i = end;
        }
        return out == null ? lines : out;
    }

    private boolean surelyStarts(int i) {
        return i == 0 || length(lines, i - 1) != width;
    }

    /** Whether the line after {@code piece} continues the line that starts at {@code start}. */
    private boolean continues(int start, int piece) {
        String next = lines.get(piece + 1);
        if (next.isBlank() || next.length() > width || firstWord(next).equals(commonWord)) return false;
        if (piece > start) return true;
        String first = lines.get(start);
        boolean row = isRow(first), nextRow = isRow(next);
        boolean midWord = !Character.isWhitespace(first.charAt(width - 1)) && !Character.isWhitespace(next.charAt(0));
        if (nextRow && !row && !midWord) return false;
        if (closesWhatIsOpen(first, next)) return true;
        if (!several) {
            String shape = shape(first, 1);
            return shape.equals(commonShape) && !starts.contains(shape(next, 1));
        }
        if (!starts.contains(shape(next, 1))) return true;
        if ((midWord || !nextRow) && !twoWordStarts.contains(shape(next, 2))) return true;
        return row && (columns(next) < columns(first) || brokenAlike(start - 2, first) || brokenAlike(start + 2, first));
    }

    /** {@code first} leaves a quote, a parenthesis or a bracket open and {@code next} closes it. */
    static boolean closesWhatIsOpen(String first, String next) {
        if (quotes(first) % 2 == 1 && quotes(next) % 2 == 1) return true;
        return depth(first, '(', ')') > 0 && depth(next, '(', ')') < 0
                || depth(first, '[', ']') > 0 && depth(next, '[', ']') < 0;
    }

    private static int quotes(String s) {
        int n = 0;
        for (int i = 0; i < s.length(); i++) if (s.charAt(i) == '"' && (i == 0 || s.charAt(i - 1) != '\\')) n++;
        return n;
    }

    /** Openers less closers, counting a closer with nothing open as -1. */
    private static int depth(String s, char open, char close) {
        int d = 0;
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) == open) d++;
            else if (s.charAt(i) == close) d--;
        }
        return d;
    }

    /** A row at {@code i} starting like {@code row}, exactly as wide, and followed by a shorter line. */
    private boolean brokenAlike(int i, String row) {
        return i >= 0 && i + 1 < lines.size() && length(lines, i) == width && length(lines, i + 1) < width
                && !lines.get(i + 1).isBlank() && shape(lines.get(i), 1).equals(shape(row, 1));
    }

    /**
     * Three or more columns, two in three of them numbers ("float", "sum" and a launcher's "[1,0]<stdout>:" stand in
     * nccl-tests rows); "2, 8, 0" is a list in a sentence and "64bit" a word, not columns.
     */
    private static boolean isRow(String line) {
        String[] columns = line.strip().split("\\s+");
        if (columns.length < 3) return false;
        int numbers = 0;
        for (String c : columns) if (NUMBER.matcher(c).matches()) numbers++;
        return numbers * 3 >= columns.length * 2;
    }

    private static int columns(String line) {
        String s = line.strip();
        return s.isEmpty() ? 0 : s.split("\\s+").length;
    }

    private static String firstWord(String line) {
        String s = line.strip();
        int sp = 0;
        while (sp < s.length() && !Character.isWhitespace(s.charAt(sp))) sp++;
        return s.substring(0, sp);
    }

    /**
     * How a line starts, coarsely: indented or not, then its first {@code words} words (at most 12 characters each)
     * with runs of digits as 9, of lower-case letters as a and of capitals as A ("[", " 9", "a9:9:9", "Aa", "a:").
     * A broken line's next piece starts mid-text, seldom the way a line does.
     */
    static String shape(String line, int words) {
        StringBuilder s = new StringBuilder();
        int i = 0;
        while (i < line.length() && Character.isWhitespace(line.charAt(i))) i++;
        if (i > 0) s.append(' ');
        for (int w = 0; w < words && i < line.length(); w++) {
            if (w > 0) s.append(' ');
            char last = 0;
            for (int n = 0; i < line.length() && !Character.isWhitespace(line.charAt(i)); i++, n++) {
                if (n >= 12) continue;
                char c = line.charAt(i);
                char k = Character.isDigit(c) ? '9' : Character.isLowerCase(c) ? 'a'
                        : Character.isUpperCase(c) ? 'A' : c;
                if (k != last || (k != '9' && k != 'a' && k != 'A')) s.append(k);
                last = k;
            }
            while (i < line.length() && Character.isWhitespace(line.charAt(i))) i++;
        }
        return s.toString();
    }

    private static int length(List<String> lines, int i) {
        return lines instanceof PackedLines p ? p.length(i) : lines.get(i).length();
    }
}
