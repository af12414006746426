package dev.railyard.report;

import dev.railyard.model.ValueText;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Writes JSON text laid out exactly as {@link Json}'s Jackson mapper lays it out (its default pretty printer): object
 * fields one per line, indented two spaces per object level, {@code "name" : value}, arrays on one line as
 * {@code [ a, b ]}, and empty ones as {@code { }} and {@code [ ]}. Strings are escaped as Jackson escapes them and cut
 * as {@link Json} cuts them. It exists for {@code inventory --format json}, whose output must come sooner than a
 * cold Jackson can write it (docs/benchmarks.md); InventoryJsonTest proves the layouts the same.
 */
final class PrettyJson {

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    /** One open object or array, and how many entries it has so far. */
    private static final class Level {
        final boolean object;
        int entries;

        Level(boolean object) {
            this.object = object;
        }
    }

    private final StringBuilder out = new StringBuilder(64 * 1024);
    private final Deque<Level> open = new ArrayDeque<>();
    private int objectDepth;
    /** A field name was written and its value is due: no separator before it. */
    private boolean valueDue;

    PrettyJson beginObject() {
        beforeValue();
        out.append('{');
        open.push(new Level(true));
        objectDepth++;
        return this;
    }

    PrettyJson endObject() {
        Level l = open.pop();
        if (!l.object) throw new IllegalStateException("endObject inside an array");
        objectDepth--;
        if (l.entries > 0) newLine();
        else out.append(' ');
        out.append('}');
        return this;
    }

    PrettyJson beginArray() {
        beforeValue();
        out.append('[');
        open.push(new Level(false));
        return this;
    }

    PrettyJson endArray() {
        Level l = open.pop();
        if (l.object) throw new IllegalStateException("endArray inside an object");
        out.append(" ]");
        return this;
    }

    PrettyJson name(String name) {
        Level l = open.peek();
        if (l == null || !l.object || valueDue) throw new IllegalStateException("a field name outside an object: " + name);
        if (l.entries++ > 0) out.append(',');
        newLine();
        quoted(name);
        out.append(" : ");
        valueDue = true;
        return this;
    }

    PrettyJson string(String s) {
        beforeValue();
        if (s == null) out.append("null");
        else quoted(ValueText.cut(s, ValueText.JSON_MAX));
        return this;
    }

    /** A string written whole, as Jackson writes the strings a custom serializer writes itself (readings' reasons). */
    PrettyJson uncutString(String s) {
        beforeValue();
        if (s == null) out.append("null");
        else quoted(s);
        return this;
    }

    PrettyJson number(long n) {
        beforeValue();
        out.append(n);
        return this;
    }

    /** As Jackson: Double.toString, and NaN or an infinity as a quoted string. */
    PrettyJson number(double d) {
        beforeValue();
        if (Double.isFinite(d)) out.append(d);
        else out.append('"').append(d).append('"');
        return this;
    }

    PrettyJson bool(boolean b) {
        beforeValue();
        out.append(b);
        return this;
    }

    PrettyJson nullValue() {
        beforeValue();
        out.append("null");
        return this;
    }

    /** The document; every object and array must be closed. */
    String text() {
        if (!open.isEmpty()) throw new IllegalStateException(open.size() + " object(s) or array(s) left open");
        return out.toString();
    }

    private void beforeValue() {
        if (valueDue) {
            valueDue = false;
            return;
        }
        Level l = open.peek();
        if (l == null) return;
        if (l.object) throw new IllegalStateException("a value without a field name inside an object");
        out.append(l.entries++ > 0 ? ", " : " ");
    }

    private void newLine() {
        out.append('\n');
        for (int i = 0; i < objectDepth; i++) out.append("  ");
    }

    /** Jackson's escapes: quote, backslash, and control characters below 0x20 (short forms where JSON has them). */
    private void quoted(String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\t' -> out.append("\\t");
                case '\r' -> out.append("\\r");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    if (c < 0x20) out.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 0xF]);
                    else out.append(c);
                }
            }
        }
        out.append('"');
    }
}
