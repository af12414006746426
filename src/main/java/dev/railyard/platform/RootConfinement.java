package dev.railyard.platform;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Resolves root-relative paths inside a captured tree the way openat2(RESOLVE_IN_ROOT) confines them, but stricter:
 * a symlink whose target is absolute or climbs above the root is refused, naming the link, instead of being
 * re-rooted. A capture from someone else's machine must never make us read this machine's /sys or /proc.
 *
 * <p>Every entry is resolved once, component by component, and remembered: a tree is read hundreds of times
 * through the same directories, and the JDK's toRealPath costs ~0.2 ms a call. A HostRoot is built per run, so the
 * memory lasts one inventory; a tree changed under a running inventory is not supported.
 */
final class RootConfinement {

    /** Linux's own limit on symlinks followed in one lookup (MAXSYMLINKS). */
    static final int MAX_LINKS = 40;

    /** Where a path led: a real path under the root, nothing, or a reason it may not be followed. */
    sealed interface Resolved {
        /** {@code type} is what lstat saw at the end of the path, so a read needs no second stat. */
        record Inside(Path real, Type type) implements Resolved {}

        record Missing() implements Resolved {}

        /** {@code link} is root-relative: the symlink (or path) at fault. */
        record Refused(String link, String why) implements Resolved {}
    }

    enum Type { FILE, DIRECTORY, OTHER }

    /** An entry resolved: its real root-relative path ("" is the root) and its type. */
    private record Entry(Resolved resolved, String real, Type type) {
        boolean directory() {
            return type == Type.DIRECTORY;
        }
    }

    private static final Entry ROOT = new Entry(null, "", Type.DIRECTORY);

    private final Path realRoot;
    /** By real parent path + "/" + name; links are followed, so the value is the entry's final target. */
    private final Map<String, Entry> entries = new ConcurrentHashMap<>();
    /**
     * Whole paths as callers ask for them: the agent reads the same ~500 attribute paths every second, and one lookup
     * costs less than walking eight components again (the walk is the same, so is its answer: entries never change).
     */
    private final Map<String, Resolved> paths = new ConcurrentHashMap<>();

    RootConfinement(Path root) {
        Path real;
        try {
            real = root.toRealPath();
        } catch (IOException e) {
            real = root.toAbsolutePath().normalize();
        }
        this.realRoot = real;
    }

    Path realRoot() {
        return realRoot;
    }

    Resolved resolve(String relative) {
        Resolved known = paths.get(relative);
        if (known != null) return known;
        Resolved r = resolveUncached(relative);
        if (paths.size() < MAX_PATHS) paths.put(relative, r);
        return r;
    }

    /** Bounds the whole-path memory (a tree walked by a capture can have millions of paths; a sampler reads ~1000). */
    private static final int MAX_PATHS = 65_536;

    private Resolved resolveUncached(String relative) {
        Entry e = walk(ROOT, relative, 0, null, relative);
        if (e.resolved() != null) return e.resolved();
        return new Resolved.Inside(e.real().isEmpty() ? realRoot : realRoot.resolve(e.real()), e.type());
    }

    /**
     * Follows {@code path} from the directory {@code from}. {@code link} is the symlink whose target this is (null
     * for the caller's own path), named when the target dangles or leaves the root.
     */
    private Entry walk(Entry from, String path, int links, String link, String original) {
        String[] parts = path.split("/");
        Entry at = from;
        for (int i = 0; i < parts.length; i++) {
            String name = parts[i];
            if (name.isEmpty() || name.equals(".")) continue;
            if (name.equals("..")) {
                if (at.real().isEmpty()) {
                    return refused(link == null ? original : link,
                            link == null ? "climbs above the root" : "symlink points outside the root");
                }
                int slash = at.real().lastIndexOf('/');
                at = new Entry(null, slash < 0 ? "" : at.real().substring(0, slash), Type.DIRECTORY);
                continue;
            }
            if (!at.directory()) return refused(at.real(), "not a directory");
            Entry next = entry(at, name, links);
            if (next.resolved() instanceof Resolved.Missing && link != null) {
                return refused(link, "dangling symlink (no " + join(at.real(), name) + ")");
            }
            if (next.resolved() != null) return next;
            at = next;
        }
        return at;
    }

    /** One name in a real directory, links followed; remembered. */
    private Entry entry(Entry dir, String name, int links) {
        String here = join(dir.real(), name);
        Entry known = entries.get(here);
        if (known != null) return known;
        Entry e;
        BasicFileAttributes attrs;
        try {
            attrs = Files.readAttributes(realRoot.resolve(here), BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException ex) {
            return remember(here, new Entry(new Resolved.Missing(), here, Type.OTHER));
        } catch (IOException ex) {
            return remember(here, refused(here, message(ex)));
        }
        if (!attrs.isSymbolicLink()) {
            e = new Entry(null, here, attrs.isDirectory() ? Type.DIRECTORY : attrs.isRegularFile() ? Type.FILE : Type.OTHER);
        } else if (links >= MAX_LINKS) {
            return refused(here, "symlink loop (more than " + MAX_LINKS + " links)");
        } else {
            Path target;
            try {
                target = Files.readSymbolicLink(realRoot.resolve(here));
            } catch (IOException ex) {
                return remember(here, refused(here, "unreadable symlink: " + message(ex)));
            }
            if (target.isAbsolute()) {
                e = refused(here, "symlink points outside the root: -> " + target);
            } else {
                e = walk(dir, target.toString(), links + 1, here, here);
            }
        }
        return remember(here, e);
    }

    private Entry remember(String key, Entry e) {
        entries.put(key, e);
        return e;
    }

    private static Entry refused(String link, String why) {
        return new Entry(new Resolved.Refused(link, why), link, Type.OTHER);
    }

    private static String join(String dir, String name) {
        return dir.isEmpty() ? name : dir + "/" + name;
    }

    static String message(IOException e) {
        if (e instanceof FileSystemException fs && fs.getReason() != null) return fs.getReason();
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
}
