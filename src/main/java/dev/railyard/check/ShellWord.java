package dev.railyard.check;

import java.util.regex.Pattern;

/**
 * A name read from a machine or a paste (a device, a netdev, a PCI address, a host) as one word of a fix's command:
 * bare when it is made of the characters such names use, else single-quoted, so a stray character in a kernel log or
 * a device name cannot become shell syntax. Beside {@link Fix}: diagnose and the agent's detectors both write fixes.
 */
public final class ShellWord {

    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_.:@/+=,-]+");

    private ShellWord() {
    }

    public static String of(String word) {
        return PLAIN.matcher(word).matches() ? word : "'" + word.replace("'", "'\\''") + "'";
    }
}
