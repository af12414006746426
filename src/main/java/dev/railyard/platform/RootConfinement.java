package dev.railyard.platform;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Resolves root-relative paths inside a captured tree the way openat2(RESOLVE_IN_ROOT) confines them, but stricter:
 * a symlink whose target is absolute or climbs above the root is refused, naming the link, instead of being
 * re-rooted. A capture from someone else's machine must never make us read this machine's /sys or /proc.
 */
final class RootConfinement {

    /** Linux's own limit on symlinks followed in one lookup (MAXSYMLINKS). */
    static final int MAX_LINKS = 40;

    /** Where a path led: a real path under the root, nothing, or a reason it may not be followed. */
    sealed interface Resolved {
        record Inside(Path real) implements Resolved {}

        record Missing() implements Resolved {}

        /** {@code link} is root-relative: the symlink (or path) at fault. */
        record Refused(String link, String why) implements Resolved {}
    }

    private final Path root;
    private final Path realRoot;

    RootConfinement(Path root) {
        this.root = root;
        Path real;
        try {
            real = root.toRealPath();
        } catch (IOException e) {
            real = root;
        }
        this.realRoot = real;
    }

    Path realRoot() {
        return realRoot;
    }

    /**
     * One realpath call for the common case; only a path that leaves the root, dangles or loops is walked component
     * by component to name the symlink at fault.
     */
    Resolved resolve(String relative) {
        try {
            Path real = root.resolve(relative).toRealPath();
            if (real.startsWith(realRoot)) return new Resolved.Inside(real);
        } catch (NoSuchFileException e) {
            // a plain missing file, or a dangling or escaping link: the walk tells which
        } catch (IOException e) {
            // ELOOP, ENOTDIR, EACCES: the walk names the link or reports the cause
        }
        return walk(relative);
    }

    private record Step(String name, String viaLink) {}

    private Resolved walk(String relative) {
        Deque<Step> pending = new ArrayDeque<>();
        for (String part : relative.split("/")) pending.addLast(new Step(part, null));
        Deque<String> at = new ArrayDeque<>();
        int links = 0;
        while (!pending.isEmpty()) {
            Step step = pending.removeFirst();
            if (step.name().isEmpty() || step.name().equals(".")) continue;
            if (step.name().equals("..")) {
                if (at.isEmpty()) {
                    return step.viaLink() == null ? new Resolved.Refused(relative, "climbs above the root")
                            : new Resolved.Refused(step.viaLink(), "symlink points outside the root");
                }
                at.removeLast();
                continue;
            }
            String here = at.isEmpty() ? step.name() : String.join("/", at) + "/" + step.name();
            Path p = realRoot.resolve(here);
            if (Files.isSymbolicLink(p)) {
                if (++links > MAX_LINKS) return new Resolved.Refused(here, "symlink loop (more than " + MAX_LINKS + " links)");
                Path target;
                try {
                    target = Files.readSymbolicLink(p);
                } catch (IOException e) {
                    return new Resolved.Refused(here, "unreadable symlink: " + message(e));
                }
                if (target.isAbsolute()) {
                    return new Resolved.Refused(here, "symlink points outside the root: -> " + target);
                }
                String[] parts = target.toString().split("/");
                for (int i = parts.length - 1; i >= 0; i--) pending.addFirst(new Step(parts[i], here));
                continue;
            }
            if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
                if (step.viaLink() != null) return new Resolved.Refused(step.viaLink(), "dangling symlink (no " + here + ")");
                return new Resolved.Missing();
            }
            if (!pending.isEmpty() && !Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                return new Resolved.Refused(here, "not a directory");
            }
            at.addLast(step.name());
        }
        return new Resolved.Inside(at.isEmpty() ? realRoot : realRoot.resolve(String.join("/", at)));
    }

    static String message(IOException e) {
        if (e instanceof FileSystemException fs && fs.getReason() != null) return fs.getReason();
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
}
