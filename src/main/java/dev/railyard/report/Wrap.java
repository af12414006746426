package dev.railyard.report;

import java.util.ArrayList;
import java.util.List;

/** Word wrapping for text output: causes and observations are wrapped, never cut, so nothing is lost on a narrow terminal. */
final class Wrap {

    private Wrap() {
    }

    /**
     * {@code text} in lines of at most {@code width} characters, broken at spaces; a word longer than the width (a
     * path, a GID) gets a line of its own rather than being split.
     */
    static List<String> words(String text, int width) {
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        for (String word : text.split(" ", -1)) {
            if (!line.isEmpty() && line.length() + 1 + word.length() > width) {
                lines.add(line.toString());
                line.setLength(0);
            }
            if (!line.isEmpty()) line.append(' ');
            line.append(word);
        }
        lines.add(line.toString());
        return lines;
    }

    /** {@link #words}, with a word longer than {@code width} broken into pieces of {@code width}: for table cells. */
    static List<String> breaking(String text, int width) {
        List<String> lines = new ArrayList<>();
        for (String line : words(text, width)) {
            while (line.length() > width) {
                lines.add(line.substring(0, width));
                line = line.substring(width);
            }
            lines.add(line);
        }
        return lines;
    }

    /**
     * Every line of {@code text} longer than {@code width} wrapped, its continuations indented four spaces past the
     * line's own indent, so a long reading stays under its label.
     */
    static String lines(String text, int width) {
        StringBuilder out = new StringBuilder();
        for (String line : text.split("\n", -1)) {
            if (!out.isEmpty()) out.append('\n');
            if (line.length() <= width) {
                out.append(line);
                continue;
            }
            int indent = 0;
            while (indent < line.length() && line.charAt(indent) == ' ') indent++;
            String pad = " ".repeat(Math.min(indent + 4, width / 2));
            List<String> parts = words(line.substring(indent), width - pad.length());
            out.append(" ".repeat(indent)).append(parts.getFirst());
            for (String p : parts.subList(1, parts.size())) out.append('\n').append(pad).append(p);
        }
        return out.toString();
    }
}
