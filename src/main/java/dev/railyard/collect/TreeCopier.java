package dev.railyard.collect;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Copies chosen paths of a live tree (sysfs, procfs) into a directory so that readers pointed at the copy see what
 * they saw live: every symlink along the way is recreated as a symlink and its target copied too, attributes are
 * copied by reading them (sysfs files claim 4096 bytes and cannot be copied like ordinary files).
 */
final class TreeCopier {

    /** A sysfs attribute is small; anything bigger is not something our readers use. */
    private static final int MAX_FILE_BYTES = 1 << 20;
    private static final int MAX_LINK_HOPS = 40;

    private final Path source;
    private final Path target;
    private final Set<String> done = new HashSet<>();
    private final List<String> problems = new ArrayList<>();

    TreeCopier(Path source, Path target) {
        this.source = source;
        this.target = target;
    }

    /** Copies one root-relative path (file, directory entry or symlink), following symlinks inside the source. */
    void copy(String relative, boolean withDirectoryEntries) {
        copy(Path.of(relative).normalize(), withDirectoryEntries, 0);
    }

    List<String> problems() {
        return List.copyOf(problems);
    }

    private void copy(Path rel, boolean withEntries, int hops) {
        if (hops > MAX_LINK_HOPS || rel.toString().isEmpty() || rel.startsWith("..")) return;
        if (!done.add(rel + (withEntries ? "/*" : ""))) return;
        Path walked = Path.of("");
        for (int i = 0; i < rel.getNameCount(); i++) {
            walked = walked.resolve(rel.getName(i));
            Path live = source.resolve(walked);
            if (Files.isSymbolicLink(live)) {
                Path linkTarget = recreateLink(walked, live);
                if (linkTarget == null) return;
                Path rest = i + 1 < rel.getNameCount() ? rel.subpath(i + 1, rel.getNameCount()) : Path.of("");
                Path resolved = walked.getParent() == null ? linkTarget : walked.getParent().resolve(linkTarget);
                copy(resolved.resolve(rest).normalize(), withEntries, hops + 1);
                return;
            }
        }
        Path live = source.resolve(rel);
        if (Files.isDirectory(live, LinkOption.NOFOLLOW_LINKS)) {
            mkdirs(rel);
            if (withEntries) copyEntries(rel, hops);
        } else if (Files.isRegularFile(live, LinkOption.NOFOLLOW_LINKS)) {
            copyFile(rel, live);
        }
    }

    private void copyEntries(Path rel, int hops) {
        try (var entries = Files.list(source.resolve(rel))) {
            for (Path e : entries.toList()) {
                Path child = rel.resolve(e.getFileName().toString());
                if (Files.isSymbolicLink(e)) recreateLink(child, e);
                else if (Files.isDirectory(e)) mkdirs(child);
                else copy(child, false, hops);
            }
        } catch (IOException e) {
            problems.add(rel + ": " + e.getMessage());
        }
    }

    private Path recreateLink(Path rel, Path live) {
        try {
            Path linkTarget = Files.readSymbolicLink(live);
            Path out = target.resolve(rel);
            if (!Files.exists(out, LinkOption.NOFOLLOW_LINKS)) {
                Files.createDirectories(out.getParent());
                Files.createSymbolicLink(out, linkTarget);
            }
            return linkTarget.isAbsolute() ? source.relativize(linkTarget) : linkTarget;
        } catch (IOException e) {
            problems.add(rel + ": " + e.getMessage());
            return null;
        }
    }

    private void copyFile(Path rel, Path live) {
        Path out = target.resolve(rel);
        try {
            Files.createDirectories(out.getParent());
            byte[] bytes;
            try (var in = Files.newInputStream(live)) {
                bytes = in.readNBytes(MAX_FILE_BYTES);
            }
            Files.write(out, bytes);
        } catch (IOException e) {
            // Unreadable attributes (EINVAL on a zero GID, write-only files) are part of what a capture shows:
            // the file is left out and the reason is listed in the capture's manifest.
            problems.add(rel + ": " + e.getMessage());
        }
    }

    private void mkdirs(Path rel) {
        try {
            Files.createDirectories(target.resolve(rel));
        } catch (IOException e) {
            problems.add(rel + ": " + e.getMessage());
        }
    }
}
