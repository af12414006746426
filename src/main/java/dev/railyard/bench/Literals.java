package dev.railyard.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * Up to 64 literal strings looked for in one pass over a line, instead of one {@code String.contains} per literal:
 * a long log is mostly lines holding none of them. Each literal is keyed by the pair of adjacent characters in it
 * that is rarest in log text (by letter frequency: "er" or ": " start a comparison on every line, "Xi" or "_c"
 * seldom); a line position whose pair keys no literal costs one table look-up.
 */
public final class Literals {

    private final String[] literals;
    /** Offset of the keying pair inside each literal. */
    private final int[] keyAt;
    /** Bit i of {@code masks[pair]}: literal i is keyed by that pair (both characters below 256). */
    private final long[] masks = new long[1 << 16];

    public Literals(List<String> literals) {
        if (literals.size() > 64) throw new IllegalArgumentException("at most 64 literals, got " + literals.size());
        this.literals = literals.toArray(String[]::new);
        this.keyAt = new int[this.literals.length];
        for (int i = 0; i < this.literals.length; i++) {
            String s = this.literals[i];
            if (s.length() < 2 || s.chars().anyMatch(c -> c > 0xFF)) {
                throw new IllegalArgumentException("literal must be two or more Latin-1 characters: '" + s + "'");
            }
            keyAt[i] = keyAt(s);
            masks[pair(s.charAt(keyAt[i]), s.charAt(keyAt[i] + 1))] |= 1L << i;
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
        int n = line.length() - 1;
        for (int p = 0; p < n; p++) {
            char a = line.charAt(p), b = line.charAt(p + 1);
            if ((a | b) > 0xFF) continue;
            long candidates = masks[a << 8 | b] & ~found;
            while (candidates != 0) {
                int i = Long.numberOfTrailingZeros(candidates);
                candidates &= candidates - 1;
                if (line.startsWith(literals[i], p - keyAt[i])) found |= 1L << i;
            }
        }
        return found;
    }

    /** As {@link #in(String)}, over Latin-1 bytes {@code from} to {@code to} of {@code b}. */
    long in(byte[] b, int from, int to) {
        long found = 0;
        for (int p = from; p < to - 1; p++) {
            long candidates = masks[(b[p] & 0xFF) << 8 | b[p + 1] & 0xFF] & ~found;
            while (candidates != 0) {
                int i = Long.numberOfTrailingZeros(candidates);
                candidates &= candidates - 1;
                if (matchesAt(b, p - keyAt[i], from, to, literals[i])) found |= 1L << i;
            }
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

    private static int keyAt(String s) {
        int best = 0, bestScore = -1;
        for (int k = 0; k + 1 < s.length(); k++) {
            int score = rarity(s.charAt(k)) + rarity(s.charAt(k + 1));
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
