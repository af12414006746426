package dev.railyard.report;

/**
 * How text output is laid out: the width to wrap at and whether to colour severities. The CLI picks it from the
 * terminal (COLUMNS, the tty's size, NO_COLOR); {@link #PLAIN} is what a pipe or a file gets.
 */
public record TextStyle(int width, boolean colour) {

    /** Wide enough for most tables, narrow enough for a mail or a ticket. */
    public static final int DEFAULT_WIDTH = 100;
    /** Below this the columns no longer fit beside each other; wrap as if this wide. */
    public static final int MIN_WIDTH = 60;
    public static final TextStyle PLAIN = new TextStyle(DEFAULT_WIDTH, false);

    public TextStyle {
        width = Math.max(MIN_WIDTH, width);
    }

    /** {@code text} in the ANSI colour for {@code code} (31 red, 32 green, 33 yellow, 35 magenta, 36 cyan), or as is. */
    public String paint(String text, int code) {
        return colour ? "\u001b[" + code + "m" + text + "\u001b[0m" : text;
    }
}
