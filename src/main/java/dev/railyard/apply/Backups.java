package dev.railyard.apply;

import dev.railyard.model.RailyardException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The backups apply makes, one timestamped directory per apply under var/backups/railyard/ with a manifest of the
 * files it replaced (copies kept beside it) and created. Undo restores the newest one and marks it undone, so a
 * second undo goes one apply further back.
 */
public final class Backups {

    static final String DIR = "var/backups/railyard";
    static final String MANIFEST = "MANIFEST";
    static final String UNDONE = ".undone";
    /** What apply wrote, as {@code sha256sum} prints it: undo checks each file against it before touching it. */
    static final String WRITTEN = "WRITTEN";
    /** The units the apply enabled with systemctl enable --now, one per line. */
    static final String ENABLED = "ENABLED";
    /** Where {@code --undo --force} keeps the hand edits it replaces. */
    static final String HAND_EDITED = "hand-edited";

    private final TargetRoot root;

    public Backups(TargetRoot root) {
        this.root = root;
    }

    /** One entry of a manifest: a replaced file (with its mode) or a created one. */
    public record Entry(boolean replaced, int mode, String path) {}

    public record Backup(Path dir, List<Entry> entries) {
        public String name() {
            return dir.getFileName().toString();
        }
    }

    static Path newDir(TargetRoot root, String stamp) {
        Path base = root.resolve(DIR);
        Path dir = base.resolve(stamp);
        for (int n = 2; Files.exists(dir) || Files.exists(base.resolve(dir.getFileName() + UNDONE)); n++) {
            dir = base.resolve(stamp + "-" + n);
        }
        return dir;
    }

    /** The newest backup not yet undone. */
    public Optional<Backup> latest() {
        Path base = root.resolve(DIR);
        if (!Files.isDirectory(base)) return Optional.empty();
        try (Stream<Path> dirs = Files.list(base)) {
            return dirs.filter(d -> !d.getFileName().toString().endsWith(UNDONE))
                    .filter(d -> Files.isRegularFile(d.resolve(MANIFEST)))
                    .max(Comparator.comparing(d -> d.getFileName().toString()))
                    .map(d -> new Backup(d, readManifest(d)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Undoes the newest apply: replaced files come back with their modes, created files go, and so do the
     * directories apply created for them when they are empty. A file changed since the apply (its SHA-256 is not the
     * one in WRITTEN) stops the undo before anything is touched, unless {@code force}: then the hand edit is kept
     * under the backup's hand-edited/ and the file restored. A file already as it was before the apply is left as is.
     * {@code undoCommand} is how the user runs undo here, for the hint.
     */
    public Backup undoLatest(boolean force, String undoCommand) {
        return undoLatest(force, undoCommand, b -> { });
    }

    /** As above; {@code beforeRestore} runs once nothing refuses the undo, before any file is touched (undo stops
     *  the units the apply enabled there, while their files are still in place). */
    public Backup undoLatest(boolean force, String undoCommand, java.util.function.Consumer<Backup> beforeRestore) {
        Optional<Backup> newest = latest();
        if (newest.isEmpty()) {
            Optional<String> undone = newestUndone();
            throw new RailyardException.Usage("nothing to undo under " + root.dir() + ": "
                    + undone.map(u -> "the newest apply (" + u + ") was undone already, and no apply is left before it")
                            .orElse("no apply has made a backup in " + root.resolve(DIR)),
                    "nothing needs doing; railyard apply --apply makes a backup the next time it changes a file");
        }
        Backup b = newest.get();
        java.util.Map<String, String> written = readWritten(b.dir());
        List<Entry> todo = new ArrayList<>();
        List<String> edited = new ArrayList<>();
        for (Entry e : b.entries()) {
            Path target = root.resolve(e.path());
            Optional<String> now = readIfFile(target);
            if (e.replaced()) {
                String before = read(b.dir().resolve(e.path()));
                if (now.isPresent() && now.get().equals(before)) continue; // already as it was
                if (now.isPresent() && written.containsKey(e.path()) && !sha256(now.get()).equals(written.get(e.path()))) {
                    edited.add(e.path());
                }
            } else {
                if (now.isEmpty()) continue; // already gone
                if (written.containsKey(e.path()) && !sha256(now.get()).equals(written.get(e.path()))) edited.add(e.path());
            }
            todo.add(e);
        }
        if (!edited.isEmpty() && !force) {
            String files = String.join(", ", edited.stream().map(p -> "/" + p).toList());
            String first = edited.getFirst();
            throw new RailyardException.Usage("not undoing " + b.name() + ": " + files + (edited.size() == 1 ? " was" : " were")
                    + " changed since that apply, and undo would overwrite the change; nothing was restored",
                    "see the change: diff " + b.dir().resolve(first) + " " + root.resolve(first) + " (the file before the apply: "
                            + (b.entries().stream().anyMatch(e -> e.path().equals(first) && e.replaced()) ? "left" : "none, apply created it")
                            + "); to keep the edit, leave things as they are; to restore anyway (the edit kept under "
                            + b.dir().resolve(HAND_EDITED) + "): " + undoCommand + " --force");
        }
        for (String p : edited) {
            try {
                Path keep = b.dir().resolve(HAND_EDITED).resolve(p);
                Files.createDirectories(keep.getParent());
                Files.copy(root.resolve(p), keep, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                        java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
            } catch (IOException ex) {
                throw new RailyardException.Usage("could not keep the hand edit of /" + p + " in " + b.dir().resolve(HAND_EDITED)
                        + ": " + ex.getMessage() + "; nothing was restored", "copy it away by hand, then undo again");
            }
        }
        beforeRestore.accept(b);
        restore(b, todo.stream().map(Entry::path).toList());
        for (String d : readDirs(b.dir()).reversed()) Installer.deleteQuietly(root.resolve(d)); // only empty ones go
        try {
            Files.move(b.dir(), b.dir().resolveSibling(b.name() + UNDONE));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new Backup(b.dir(), todo);
    }

    private Optional<String> newestUndone() {
        Path base = root.resolve(DIR);
        if (!Files.isDirectory(base)) return Optional.empty();
        try (Stream<Path> dirs = Files.list(base)) {
            return dirs.map(d -> d.getFileName().toString()).filter(n -> n.endsWith(UNDONE))
                    .max(Comparator.naturalOrder()).map(n -> n.substring(0, n.length() - UNDONE.length()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Optional<String> readIfFile(Path p) {
        if (!Files.isRegularFile(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) return Optional.empty();
        return Optional.of(read(p));
    }

    private static String read(Path p) {
        try {
            return new String(Files.readAllBytes(p), StandardCharsets.UTF_8); // not UTF-8: never equal to what apply wrote
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Records the units an apply enabled (one per line), so that its undo disables exactly those. */
    public static void recordEnabled(Backup b, List<String> units) {
        if (units.isEmpty()) return;
        try {
            Installer.writeSynced(b.dir().resolve(ENABLED), String.join("\n", units) + "\n", 0600);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The units the apply of this backup enabled (none recorded: none). */
    public static List<String> enabled(Backup b) {
        Path f = b.dir().resolve(ENABLED);
        if (!Files.isRegularFile(f)) return List.of();
        return read(f).lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
    }

    public static String sha256(String text) {
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** WRITTEN's hashes by path; empty for a backup made before there was one (then undo checks nothing). */
    static java.util.Map<String, String> readWritten(Path dir) {
        java.util.Map<String, String> m = new java.util.HashMap<>();
        Path f = dir.resolve(WRITTEN);
        if (!Files.isRegularFile(f)) return m;
        try {
            for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
                int sep = line.indexOf("  ");
                if (sep > 0) m.put(line.substring(sep + 2), line.substring(0, sep));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return m;
    }

    /** The directories apply created, outermost first. */
    static List<String> readDirs(Path dir) {
        try {
            return Files.readAllLines(dir.resolve(MANIFEST), StandardCharsets.UTF_8).stream()
                    .filter(l -> l.startsWith("mkdir ")).map(l -> l.substring("mkdir ".length())).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Restores the given paths of a backup, each atomically. */
    void restore(Backup b, List<String> paths) {
        for (Entry e : b.entries()) {
            if (!paths.contains(e.path())) continue;
            Path target = root.resolve(e.path());
            try {
                if (e.replaced()) {
                    String text = Files.readString(b.dir().resolve(e.path()), StandardCharsets.UTF_8);
                    Path tmp = target.resolveSibling("." + target.getFileName() + Installer.TMP_SUFFIX);
                    Installer.writeSynced(tmp, text, e.mode());
                    Installer.moveAtomically(tmp, target);
                } else {
                    Files.deleteIfExists(target);
                }
            } catch (IOException ex) {
                throw new RailyardException.Usage("could not restore /" + e.path() + " from " + b.dir() + ": " + ex.getMessage(),
                        "copy it back by hand from " + b.dir());
            }
        }
    }

    static List<Entry> readManifest(Path dir) {
        List<Entry> entries = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(dir.resolve(MANIFEST), StandardCharsets.UTF_8)) {
                String[] f = line.split(" ", 3);
                if (f.length == 3 && f[0].equals("replaced")) entries.add(new Entry(true, Integer.parseInt(f[1], 8), f[2]));
                else if (f.length == 2 && f[0].equals("created")) entries.add(new Entry(false, 0, f[1]));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return entries;
    }

    static void deleteQuietly(Path dir) {
        if (!Files.exists(dir)) return;
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        } catch (IOException | UncheckedIOException ignored) {
            // best effort: a leftover partial backup has no MANIFEST, so undo never picks it
        }
    }
}
