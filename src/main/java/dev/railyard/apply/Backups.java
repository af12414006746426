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

    /** Undoes the newest apply: replaced files come back with their modes, created files go. */
    public Backup undoLatest() {
        Backup b = latest().orElseThrow(() -> new RailyardException.Usage("no apply to undo under " + root.resolve(DIR),
                "railyard apply --apply makes one"));
        restore(b, b.entries().stream().map(Entry::path).toList());
        try {
            Files.move(b.dir(), b.dir().resolveSibling(b.name() + UNDONE));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return b;
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
