package dev.railyard.platform;

import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentSkipListSet;

/** The root-relative paths readers touched: files (and symlinks) read, and directories listed. */
public final class ReadLog {

    /** Records nothing; the default for every root that is not being captured. */
    static final ReadLog NONE = new ReadLog(false);

    private final boolean enabled;
    private final Set<String> files = new ConcurrentSkipListSet<>();
    private final Set<String> directories = new ConcurrentSkipListSet<>();

    private ReadLog(boolean enabled) {
        this.enabled = enabled;
    }

    public static ReadLog create() {
        return new ReadLog(true);
    }

    void file(String relative) {
        if (enabled) files.add(strip(relative));
    }

    void directory(String relative) {
        if (enabled) directories.add(strip(relative));
    }

    public Set<String> files() {
        return new TreeSet<>(files);
    }

    public Set<String> directories() {
        return new TreeSet<>(directories);
    }

    private static String strip(String relative) {
        return relative.startsWith("/") ? relative.substring(1) : relative;
    }
}
