package dev.railyard.spec;

import java.util.Collection;
import java.util.Optional;

/** "Did you mean" for misspelt keys and names: the closest candidate within a small edit distance. */
final class KeySuggestion {

    private KeySuggestion() {
    }

    static Optional<String> closest(String typed, Collection<String> candidates) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String c : candidates) {
            int d = distance(typed.toLowerCase(), c.toLowerCase());
            if (d < bestDistance) {
                best = c;
                bestDistance = d;
            }
        }
        // Two edits catch typos and dash/underscore slips without suggesting unrelated keys for short words.
        int allowed = Math.max(2, typed.length() / 4);
        return best != null && bestDistance <= allowed ? Optional.of(best) : Optional.empty();
    }

    /** Levenshtein distance, with '-' and '_' counted as the same character. */
    static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) prev[j] = j;
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = same(a.charAt(i - 1), b.charAt(j - 1)) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }

    private static boolean same(char x, char y) {
        return x == y || (x == '-' || x == '_') && (y == '-' || y == '_');
    }
}
