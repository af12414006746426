package dev.railyard.cluster;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Turns an argv list into one command line for a remote POSIX shell, which is all ssh can carry: every element in
 * single quotes, with each {@code '} written as {@code '\''}. Inside single quotes a POSIX shell gives no character
 * a meaning, so no element can become two words, a variable, a glob or a second command.
 */
public final class PosixShellWords {

    private PosixShellWords() {
    }

    public static String quote(String word) {
        if (word.indexOf('\0') >= 0) throw new IllegalArgumentException("a NUL byte cannot be passed to a command");
        return "'" + word.replace("'", "'\\''") + "'";
    }

    public static String join(List<String> argv) {
        if (argv.isEmpty()) throw new IllegalArgumentException("empty command");
        return argv.stream().map(PosixShellWords::quote).collect(Collectors.joining(" "));
    }
}
