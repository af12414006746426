package dev.railyard.render;

/** Octal modes as the "rw-r--r--" strings java.nio's POSIX attributes take. */
public final class FileModes {

    private FileModes() {
    }

    public static String symbolic(int mode) {
        StringBuilder s = new StringBuilder();
        String letters = "rwx";
        for (int bit = 8; bit >= 0; bit--) s.append((mode & (1 << bit)) != 0 ? letters.charAt((8 - bit) % 3) : '-');
        return s.toString();
    }
}
