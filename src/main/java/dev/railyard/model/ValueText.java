package dev.railyard.model;

/**
 * Text read from a node tree, made safe to quote: a garbage attribute can be megabytes of anything, and its bytes
 * end up in failure messages, findings and terminals. Pure string work, no I/O.
 */
public final class ValueText {

    /** How much of a bad value a failure message quotes: enough to recognise it. */
    public static final int QUOTE_MAX = 64;
    /** The longest value a report prints whole. */
    public static final int REPORT_MAX = 512;
    /** The longest string JSON output carries whole: far above any real attribute, far below a garbage file. */
    public static final int JSON_MAX = 4096;

    private ValueText() {}

    /** {@code "value"} with control characters escaped and cut after {@link #QUOTE_MAX} characters. */
    public static String quote(String s) {
        return "\"" + escapeControls(cut(s, QUOTE_MAX)) + "\"";
    }

    /** The text cut after {@code max} characters with a marker saying how long it was; shorter text unchanged. */
    public static String cut(String s, int max) {
        if (s.length() <= max) return s;
        int end = max;
        if (Character.isHighSurrogate(s.charAt(end - 1))) end--;
        return s.substring(0, end) + "…[cut: " + s.length() + " chars]";
    }

    /**
     * Control characters (the ESC of terminal sequences, CR, BEL, C1 controls) as visible escapes: \e, \r, \x07.
     * Newlines and tabs are kept only when {@code keepLayout} says the caller lays text out in lines.
     */
    public static String escapeControls(String s, boolean keepLayout) {
        StringBuilder b = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean control = Character.isISOControl(c) || c == '\u2028' || c == '\u2029' || c == '\u202e';
            if (control && keepLayout && (c == '\n' || c == '\t')) control = false;
            if (!control) {
                if (b != null) b.append(c);
                continue;
            }
            if (b == null) b = new StringBuilder(s.length() + 8).append(s, 0, i);
            switch (c) {
                case '\u001b' -> b.append("\\e");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> b.append(String.format("\\x%02x", (int) c));
            }
        }
        return b == null ? s : b.toString();
    }

    public static String escapeControls(String s) {
        return escapeControls(s, false);
    }

    /** For one-line report fields: escaped and cut at {@link #REPORT_MAX}. */
    public static String printable(String s) {
        return escapeControls(cut(s, REPORT_MAX));
    }
}
