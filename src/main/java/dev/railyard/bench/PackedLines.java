package dev.railyard.bench;

import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.RandomAccess;

/**
 * An immutable list of many lines kept as Latin-1 bytes back to back in 1 MiB chunks, each line made a String only
 * when it is asked for. A 50 MB log read into 650,000 Strings costs 80 MB of objects that every garbage collection
 * copies; these chunks are a few dozen arrays, and a pass that looks for {@link Literals} in every line reads the
 * bytes without making a String of the lines that hold none. A line with a character beyond Latin-1 is kept as it
 * is, as a String.
 */
public final class PackedLines extends AbstractList<String> implements RandomAccess {

    private static final int CHUNK = 1 << 20;

    private final byte[][] chunks;
    /** Per line: chunk index << 20 | offset in it, and the length; length -1 marks a line kept in {@link #wide}. */
    private final int[] at, length;
    private final Map<Integer, String> wide;
    private final int size;

    private PackedLines(Builder b) {
        this.chunks = b.chunks.toArray(byte[][]::new);
        this.at = b.at;
        this.length = b.length;
        this.wide = Map.copyOf(b.wide);
        this.size = b.size;
    }

    @Override
    public String get(int index) {
        if (index < 0 || index >= size) throw new IndexOutOfBoundsException(index);
        int n = length[index];
        if (n < 0) return wide.get(index);
        if (n == 0) return "";
        return new String(chunks[at[index] >>> 20], at[index] & (CHUNK - 1), n,
                java.nio.charset.StandardCharsets.ISO_8859_1);
    }

    @Override
    public int size() {
        return size;
    }

    /** The length of line {@code index}, without making a String of it. */
    public int length(int index) {
        return length[index] < 0 ? wide.get(index).length() : length[index];
    }

    /** {@link Literals#in(String)} of line {@code index}, read from its bytes. */
    long literalsIn(int index, Literals literals) {
        int n = length[index];
        if (n < 0) return literals.in(wide.get(index));
        if (n == 0) return 0;
        int from = at[index] & (CHUNK - 1);
        return literals.in(chunks[at[index] >>> 20], from, from + n);
    }

    /** {@link String#isBlank()} of line {@code index}, read from its bytes. */
    boolean isBlank(int index) {
        int n = length[index];
        if (n < 0) return wide.get(index).isBlank();
        if (n == 0) return true;
        byte[] c = chunks[at[index] >>> 20];
        int from = at[index] & (CHUNK - 1);
        for (int i = from; i < from + n; i++) {
            int b = c[i] & 0xFF;
            if (!(b == ' ' || (b >= '\t' && b <= '\r') || (b >= 0x1C && b <= 0x1F))) return false;
        }
        return true;
    }

    /** Appends lines; {@link #build()} freezes them. */
    public static final class Builder {
        private final List<byte[]> chunks = new ArrayList<>();
        private final Map<Integer, String> wide = new HashMap<>();
        private int[] at = new int[1024], length = new int[1024];
        private int size, used = CHUNK;

        public Builder add(String line) {
            return add(line, false);
        }

        /** As {@link #add(String)}, for a caller that knows the line is ASCII (it saw its bytes) and saves a scan. */
        public Builder add(String line, boolean ascii) {
            if (size == at.length) {
                at = Arrays.copyOf(at, size * 2);
                length = Arrays.copyOf(length, size * 2);
            }
            int n = line.length();
            if (n >= CHUNK || !(ascii || latin1(line))) {
                wide.put(size, line);
                length[size++] = -1;
                return this;
            }
            if (chunks.isEmpty() || used + n > CHUNK) {
                chunks.add(new byte[CHUNK]);
                used = 0;
            }
            line.getBytes(0, n, chunks.getLast(), used); // Latin-1 checked: each char is one byte
            at[size] = (chunks.size() - 1) << 20 | used;
            length[size++] = n;
            used += n;
            return this;
        }

        /** Appends an ASCII line given as its bytes. */
        public Builder addAscii(byte[] bytes, int from, int to) {
            int n = to - from;
            if (n >= CHUNK) return add(new String(bytes, from, n, java.nio.charset.StandardCharsets.US_ASCII), true);
            if (size == at.length) {
                at = Arrays.copyOf(at, size * 2);
                length = Arrays.copyOf(length, size * 2);
            }
            if (chunks.isEmpty() || used + n > CHUNK) {
                chunks.add(new byte[CHUNK]);
                used = 0;
            }
            System.arraycopy(bytes, from, chunks.getLast(), used, n);
            at[size] = (chunks.size() - 1) << 20 | used;
            length[size++] = n;
            used += n;
            return this;
        }

        public PackedLines build() {
            return new PackedLines(this);
        }

        private static boolean latin1(String s) {
            for (int i = 0; i < s.length(); i++) if (s.charAt(i) > 0xFF) return false;
            return true;
        }
    }
}
