package dev.railyard.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * Up to 64 literal strings looked for in one pass over a line, instead of one {@code String.contains} per literal:
 * a long log is mostly lines holding none of them. The pass is Wu and Manber's: it looks at pairs of characters
 * and jumps as far as no literal can end within the jump, so it reads one pair in about {@code m - 1} characters
 * (m the shortest literal's length). Each literal is represented by the {@code m} characters of it whose last pair
 * is rarest in log text (by letter frequency), so the pairs that start a comparison are seldom seen.
 */
public final class Literals {

    private final String[] literals;
    /** The shortest literal's length: every literal is represented by this many of its characters. */
    private final int m;
    /** Where each literal's represented characters start in it. */
    private final int[] windowAt;
    /** Per pair of Latin-1 characters: how far the scan may move on when it ends at that pair. */
    private final byte[] shift = new byte[1 << 16];
    /** Per pair: the literals whose represented characters end with it (shift 0: compare them). */
    private final long[] ending = new long[1 << 16];

    public Literals(List<String> literals) {
        if (literals.isEmpty() || literals.size() > 64) {
            throw new IllegalArgumentException("1 to 64 literals, got " + literals.size());
        }
        this.literals = literals.toArray(String[]::new);
        for (String s : this.literals) {
            if (s.length() < 2 || s.chars().anyMatch(c -> c > 0xFF)) {
                throw new IllegalArgumentException("literal must be two or more Latin-1 characters: '" + s + "'");
            }
        }
        this.m = Math.min(64, literals.stream().mapToInt(String::length).min().orElseThrow());
        this.windowAt = new int[this.literals.length];
        java.util.Arrays.fill(shift, (byte) (m - 1));
        for (int i = 0; i < this.literals.length; i++) {
            String s = this.literals[i];
            int k = windowAt[i] = windowAt(s, m);
            for (int j = 1; j < m; j++) {
                int pair = pair(s.charAt(k + j - 1), s.charAt(k + j));
                shift[pair] = (byte) Math.min(shift[pair], m - 1 - j);
            }
            ending[pair(s.charAt(k + m - 2), s.charAt(k + m - 1))] |= 1L << i;
        }
    }

    public static Literals of(String... literals) {
        return new Literals(List.of(literals));
    }

    public int size() {
        return literals.length;
    }

    public String literal(int i) {
        return literals[i];
    }

    /** Bit i set: literal i occurs in {@code line}. */
    public long in(String line) {
        long found = 0;
        int pos = m - 1, n = line.length();
        while (pos < n) {
            char a = line.charAt(pos - 1), b = line.charAt(pos);
            if ((a | b) > 0xFF) {
                pos += m - 1; // no literal holds such a character
                continue;
            }
            int pair = pair(a, b), s = shift[pair];
            if (s == 0) {
                long candidates = ending[pair] & ~found;
                while (candidates != 0) {
                    int i = Long.numberOfTrailingZeros(candidates);
                    candidates &= candidates - 1;
                    if (line.startsWith(literals[i], pos - (m - 1) - windowAt[i])) found |= 1L << i;
                }
                s = 1;
            }
            pos += s;
        }
        return found;
    }

    /** As {@link #in(String)}, over Latin-1 bytes {@code from} to {@code to} of {@code b}. */
    long in(byte[] b, int from, int to) {
        long found = 0;
        int pos = from + m - 1;
        while (pos < to) {
            int pair = (b[pos - 1] & 0xFF) << 8 | b[pos] & 0xFF, s = shift[pair];
            if (s == 0) {
                long candidates = ending[pair] & ~found;
                while (candidates != 0) {
                    int i = Long.numberOfTrailingZeros(candidates);
                    candidates &= candidates - 1;
                    if (matchesAt(b, pos - (m - 1) - windowAt[i], from, to, literals[i])) found |= 1L << i;
                }
                s = 1;
            }
            pos += s;
        }
        return found;
    }

    /** {@link #in(String)} of {@code lines.get(index)}, without making a String of a packed line. */
    public long in(List<String> lines, int index) {
        return lines instanceof PackedLines p ? p.literalsIn(index, this) : in(lines.get(index));
    }

    private static boolean matchesAt(byte[] b, int at, int from, int to, String literal) {
        if (at < from || at + literal.length() > to) return false;
        for (int k = 0; k < literal.length(); k++) if ((b[at + k] & 0xFF) != literal.charAt(k)) return false;
        return true;
    }

    /** The literals whose bits are set in {@code mask}. */
    public List<String> named(long mask) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < literals.length; i++) if ((mask & 1L << i) != 0) out.add(literals[i]);
        return out;
    }

    private static int pair(char a, char b) {
        return a << 8 | b;
    }

    /** Letters of English text, most frequent first. */
    private static final String FREQUENT = "etaoinshrdlcumwfgypbvkjxqz";

    /** The start of the {@code m} characters of {@code s} whose last pair is rarest. */
    private static int windowAt(String s, int m) {
        int best = 0, bestScore = -1;
        for (int k = 0; k + m <= s.length(); k++) {
            int score = rarity(s.charAt(k + m - 2)) + rarity(s.charAt(k + m - 1));
            if (score > bestScore) {
                best = k;
                bestScore = score;
            }
        }
        return best;
    }

    private static int rarity(char c) {
        int f = FREQUENT.indexOf(c);
        if (f >= 0) return f;
        if (c == ' ') return 0;
        if (Character.isUpperCase(c) || c == '_') return 20;
        if (Character.isDigit(c)) return 15;
        return 10;
    }
}
