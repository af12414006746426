package dev.railyard.apply;

import dev.railyard.model.RailyardException;
import dev.railyard.platform.Clock;
import dev.railyard.render.FileModes;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Puts changed files in place so that no file is ever half-written: every new file and every backup is written
 * and synced first (a full disk or an I/O error there leaves the root exactly as it was), and only then is each
 * file renamed over its target, which the kernel does atomically within one file system.
 */
public final class Installer {

    static final String TMP_SUFFIX = ".railyard-tmp";
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

    private final TargetRoot root;
    private final Clock clock;

    public Installer(TargetRoot root, Clock clock) {
        this.root = root;
        this.clock = clock;
    }

    /** A staged file: its temporary beside the target and the target. */
    private record Staged(Path tmp, Path target) {}

    /** Applies the changes that are not UNCHANGED; returns the backup made, or nothing when nothing changed. */
    public Optional<Backups.Backup> apply(List<Change> changes) {
        List<Change> todo = changes.stream().filter(c -> c.kind() != Change.Kind.UNCHANGED).toList();
        if (todo.isEmpty()) return Optional.empty();
        refuseReadOnly(todo);
        Path backupDir = Backups.newDir(root, STAMP.format(clock.now()));
        List<Staged> staged = new ArrayList<>();
        List<String> manifest = new ArrayList<>();
        List<Path> createdDirs = new ArrayList<>();
        try {
            createParents(backupDir, createdDirs);
            for (Change c : todo) {
                Path target = root.resolve(c.file().path());
                createParents(target.getParent(), createdDirs);
                if (c.current().isPresent()) {
                    Path copy = backupDir.resolve(c.file().path());
                    writeSynced(copy, c.current().get(), c.currentMode().orElse(0644));
                    manifest.add("replaced " + String.format("%04o", c.currentMode().orElse(0644)) + " " + c.file().path());
                } else {
                    manifest.add("created " + c.file().path());
                }
                Path tmp = target.resolveSibling("." + target.getFileName() + TMP_SUFFIX);
                staged.add(new Staged(tmp, target));
                writeSynced(tmp, c.file().content(), c.file().mode());
            }
            writeSynced(backupDir.resolve(Backups.MANIFEST), String.join("\n", manifest) + "\n", 0600);
        } catch (IOException | UncheckedIOException e) {
            for (Staged s : staged) deleteQuietly(s.tmp());
            Backups.deleteQuietly(backupDir);
            for (Path d : createdDirs.reversed()) deleteQuietly(d);
            String why = e.getMessage() == null ? e.toString() : e.getMessage();
            if (why.contains("No space left")) {
                throw new RailyardException.MissingPrerequisite("no space left under " + root.dir() + " (" + why
                        + "): nothing was changed", "free some space and run railyard apply --apply again");
            }
            throw new RailyardException.Usage("could not stage the files under " + root.dir() + ": " + why
                    + "; nothing was changed", "fix the cause and run railyard apply --apply again");
        }
        List<Staged> moved = new ArrayList<>();
        try {
            for (Staged s : staged) {
                moveAtomically(s.tmp(), s.target());
                moved.add(s);
            }
        } catch (IOException e) {
            // a rename failing after others succeeded: put back what was moved, so the root stays consistent
            for (Staged s : staged) deleteQuietly(s.tmp());
            Backups.Backup partial = new Backups.Backup(backupDir, Backups.readManifest(backupDir));
            new Backups(root).restore(partial, moved.stream().map(s -> root.dir().relativize(s.target()).toString()).toList());
            throw new RailyardException.Usage("could not put " + e.getMessage() + " in place; the files already moved "
                    + "were restored from " + backupDir, "fix the cause and run railyard apply --apply again");
        }
        return Optional.of(new Backups.Backup(backupDir, Backups.readManifest(backupDir)));
    }

    /**
     * A target without its owner's write bit was made read-only on purpose (root could still replace it, so the
     * check is on the mode): the whole apply stops before anything is written.
     */
    private void refuseReadOnly(List<Change> todo) {
        for (Change c : todo) {
            if (c.currentMode().isPresent() && (c.currentMode().get() & 0200) == 0) {
                throw new RailyardException.Usage("/" + c.file().path() + " is read-only (mode "
                        + String.format("%04o", c.currentMode().get()) + "): nothing was changed",
                        "if it should be replaced: chmod u+w " + root.resolve(c.file().path()) + ", then apply again");
            }
        }
    }

    /** Creates the missing directories above a target, noting each, so a failed stage can remove them again. */
    private static void createParents(Path dir, List<Path> created) throws IOException {
        List<Path> missing = new ArrayList<>();
        for (Path d = dir; d != null && !Files.exists(d); d = d.getParent()) missing.addFirst(d);
        for (Path d : missing) {
            Files.createDirectory(d);
            created.add(d);
        }
    }

    static void writeSynced(Path p, String text, int mode) throws IOException {
        Files.createDirectories(p.getParent());
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE)) {
            ByteBuffer buf = ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
            while (buf.hasRemaining()) ch.write(buf);
            ch.force(true);
        }
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(FileModes.symbolic(mode)));
    }

    static void moveAtomically(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            throw new IOException(to + ": the file system cannot rename atomically", e);
        }
    }

    static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException ignored) {
            // best effort while undoing a failed stage; the error that caused it is the one reported
        }
    }
}
