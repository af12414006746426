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
import java.util.function.BooleanSupplier;

/**
 * Puts changed files in place so that no file is ever half-written: every new file and every backup is written
 * and synced first (a full disk or an I/O error there leaves the root exactly as it was), and only then is each
 * file renamed over its target, which the kernel does atomically within one file system.
 */
public final class Installer {

    static final String TMP_SUFFIX = ".railyard-tmp";
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

    /** A JVM property (milliseconds) that pauses before each file is staged and before each is renamed: tests use
     *  it to send Ctrl-C at a chosen moment of a real apply. */
    static final String PAUSE_PROPERTY = "railyard.apply.pauseMillis";

    private final TargetRoot root;
    private final Clock clock;
    private final BooleanSupplier stop;

    public Installer(TargetRoot root, Clock clock) {
        this(root, clock, () -> false);
    }

    /** {@code stop} is asked before each file is staged and before each is renamed (Ctrl-C, SIGTERM). */
    public Installer(TargetRoot root, Clock clock, BooleanSupplier stop) {
        this.root = root;
        this.clock = clock;
        this.stop = stop;
    }

    /** A staged file: its change, its temporary beside the target and the target. */
    private record Staged(Change change, Path tmp, Path target) {}

    /**
     * What an apply did: the backup (of the files actually put in place; none when none was), those files, and
     * whether a stop request ended it before every file was in place.
     */
    public record Outcome(Optional<Backups.Backup> backup, List<Change> applied, boolean stopped) {
        public Outcome {
            applied = List.copyOf(applied);
        }
    }

    /**
     * Applies the changes that are not UNCHANGED. A stop request while staging removes what was staged (nothing
     * changes); one while renaming lets the file being renamed finish (a rename is atomic) and renames no other:
     * the backup then lists exactly the files that were put in place, so undo puts back exactly those.
     */
    public Outcome apply(List<Change> changes) {
        List<Change> todo = changes.stream().filter(c -> c.kind() != Change.Kind.UNCHANGED).toList();
        removeStaleTemporaries(changes);
        if (todo.isEmpty()) return new Outcome(Optional.empty(), List.of(), false);
        refuseReadOnly(todo);
        Path backupDir = Backups.newDir(root, STAMP.format(clock.now()));
        List<Staged> staged = new ArrayList<>();
        List<Path> createdDirs = new ArrayList<>();
        List<Path> targetDirs = new ArrayList<>();
        try {
            createParents(backupDir, createdDirs);
            for (Change c : todo) {
                pause();
                if (stop.getAsBoolean()) {
                    unstage(staged, backupDir, createdDirs, targetDirs);
                    return new Outcome(Optional.empty(), List.of(), true);
                }
                Path target = root.resolve(c.file().path());
                createParents(target.getParent(), targetDirs);
                if (c.current().isPresent()) {
                    writeSynced(backupDir.resolve(c.file().path()), c.current().get(), c.currentMode().orElse(0644));
                }
                Path tmp = target.resolveSibling("." + target.getFileName() + TMP_SUFFIX);
                staged.add(new Staged(c, tmp, target));
                writeSynced(tmp, c.file().content(), c.file().mode());
            }
            writeManifest(backupDir, todo, targetDirs);
        } catch (IOException | UncheckedIOException e) {
            unstage(staged, backupDir, createdDirs, targetDirs);
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
                pause();
                if (stop.getAsBoolean()) break;
                moveAtomically(s.tmp(), s.target());
                moved.add(s);
            }
        } catch (IOException e) {
            // a rename failing after others succeeded: put back what was moved, so the root stays consistent
            for (Staged s : staged) deleteQuietly(s.tmp());
            Backups.Backup partial = new Backups.Backup(backupDir, Backups.readManifest(backupDir));
            new Backups(root).restore(partial, moved.stream().map(s -> s.change().file().path()).toList());
            throw new RailyardException.Usage("could not put " + e.getMessage() + " in place; the files already moved "
                    + "were restored from " + backupDir, "fix the cause and run railyard apply --apply again");
        }
        if (moved.size() == staged.size()) {
            return new Outcome(Optional.of(new Backups.Backup(backupDir, Backups.readManifest(backupDir))), todo, false);
        }
        // stopped between two renames: the rest is not put in place, and the backup is cut down to what was
        if (moved.isEmpty()) {
            unstage(staged, backupDir, createdDirs, targetDirs);
            return new Outcome(Optional.empty(), List.of(), true);
        }
        List<Change> applied = moved.stream().map(Staged::change).toList();
        for (Staged s : staged.subList(moved.size(), staged.size())) {
            deleteQuietly(s.tmp());
            deleteQuietly(backupDir.resolve(s.change().file().path()));
        }
        for (Path d : targetDirs.reversed()) deleteQuietly(d); // only the empty ones go
        try {
            writeManifest(backupDir, applied, targetDirs.stream().filter(Files::isDirectory).toList());
        } catch (IOException e) {
            throw new RailyardException.Usage("stopped after " + applied.size() + " file(s), but could not write the "
                    + "backup's manifest in " + backupDir + ": " + e.getMessage(), "copy the files back by hand from " + backupDir);
        }
        return new Outcome(Optional.of(new Backups.Backup(backupDir, Backups.readManifest(backupDir))), applied, true);
    }

    /**
     * The MANIFEST (each file replaced, with its mode, or created, and each directory created) and WRITTEN (the
     * SHA-256 of what apply wrote, as {@code sha256sum} prints it: undo refuses to overwrite a file changed since),
     * each written whole beside the backup and renamed into place.
     */
    private void writeManifest(Path backupDir, List<Change> changes, List<Path> dirs) throws IOException {
        List<String> manifest = new ArrayList<>();
        List<String> written = new ArrayList<>();
        for (Change c : changes) {
            manifest.add(c.current().isPresent()
                    ? "replaced " + String.format("%04o", c.currentMode().orElse(0644)) + " " + c.file().path()
                    : "created " + c.file().path());
            written.add(Backups.sha256(c.file().content()) + "  " + c.file().path());
        }
        for (Path d : dirs) manifest.add("mkdir " + root.dir().relativize(d));
        writeSynced(backupDir.resolve(Backups.WRITTEN + TMP_SUFFIX), String.join("\n", written) + "\n", 0600);
        moveAtomically(backupDir.resolve(Backups.WRITTEN + TMP_SUFFIX), backupDir.resolve(Backups.WRITTEN));
        writeSynced(backupDir.resolve(Backups.MANIFEST + TMP_SUFFIX), String.join("\n", manifest) + "\n", 0600);
        moveAtomically(backupDir.resolve(Backups.MANIFEST + TMP_SUFFIX), backupDir.resolve(Backups.MANIFEST));
    }

    /** Removes what staging made: the temporaries, the backup and the directories created for either. */
    private static void unstage(List<Staged> staged, Path backupDir, List<Path> createdDirs, List<Path> targetDirs) {
        for (Staged s : staged) deleteQuietly(s.tmp());
        Backups.deleteQuietly(backupDir);
        for (Path d : targetDirs.reversed()) deleteQuietly(d);
        for (Path d : createdDirs.reversed()) deleteQuietly(d);
    }

    /** A temporary left by an apply that was killed outright (SIGKILL, a power cut) is removed by the next one. */
    private void removeStaleTemporaries(List<Change> changes) {
        for (Change c : changes) {
            Path target = root.resolve(c.file().path());
            Path tmp = target.resolveSibling("." + target.getFileName() + TMP_SUFFIX);
            if (Files.exists(tmp, java.nio.file.LinkOption.NOFOLLOW_LINKS)) deleteQuietly(tmp);
        }
    }

    private static void pause() {
        long ms = Long.getLong(PAUSE_PROPERTY, 0L);
        if (ms <= 0) return;
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
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
