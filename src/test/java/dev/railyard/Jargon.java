package dev.railyard;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Words from our own notes that mean nothing to a user: the seed documents ("seed 001") and the seed systems of
 * PRODUCT.md ("S1".."S4"). User-facing text names a system by its hardware instead (two V100 nodes on ConnectX-3 Pro
 * RoCE, 8 x H100 on InfiniBand HDR).
 */
public final class Jargon {

    public static final Pattern PATTERN = Pattern.compile("(?i:\\bseeds?\\b)|\\bS[1-4]\\b");

    private Jargon() {
    }

    /** "WHERE: internal jargon 'seed 000' in: …" for each occurrence in {@code text}; empty when there is none. */
    public static List<String> in(String where, String text) {
        List<String> found = new ArrayList<>();
        Matcher m = PATTERN.matcher(text);
        while (m.find()) {
            int from = Math.max(0, m.start() - 40);
            int to = Math.min(text.length(), m.end() + 40);
            found.add(where + ": internal jargon '" + m.group() + "' in: " + text.substring(from, to).replace('\n', ' '));
        }
        return found;
    }
}
