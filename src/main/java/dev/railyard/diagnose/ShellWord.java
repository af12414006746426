package dev.railyard.diagnose;

import java.util.regex.Pattern;

/**
 * A name read from a paste (a device, a PCI address, a host) as one word of a fix's command: bare when it is made of
 * the characters such names use, else single-quoted, so a stray character in a pasted log cannot become shell syntax.
 */
final class ShellWord {

    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_.:@/+=,-]+");

    private ShellWord() {
    }

    static String of(String word) {
        return PLAIN.matcher(word).matches() ? word : "'" + word.replace("'", "'\\''") + "'";
    }
}
