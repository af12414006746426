package dev.railyard.apply;

import dev.railyard.model.RailyardException;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;

/**
 * One {@code apply --apply} or {@code --undo} at a time on one root: two at once would each diff against files the
 * other is replacing, and each back up the other's half-written state. The lock is the kernel's (fcntl) on a file
 * outside the root, in /run/lock (else the temporary directory), named after the root's real path, so a root's
 * contents never change for it; the kernel drops it when the process ends, however it ends, so it is never stale.
 */
public final class ApplyLock implements AutoCloseable {

    private final FileChannel channel;
    private final FileLock lock;

    private ApplyLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /** Takes the lock of {@code root}, or says who holds it (exit 3): never waits. */
    public static ApplyLock acquire(Path root) {
        return acquire(root, defaultLockDir());
    }

    static ApplyLock acquire(Path root, Path lockDir) {
        Path file = lockFile(root, lockDir);
        FileChannel channel;
        try {
            channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new RailyardException.MissingPrerequisite("cannot open the apply lock " + file + ": " + e.getMessage(),
                    "railyard apply needs to create a file in " + lockDir + " (run it as the user that owns " + root + ")");
        }
        try {
            FileLock lock;
            boolean heldHere = false;
            try {
                lock = channel.tryLock();
            } catch (OverlappingFileLockException e) {
                lock = null; // held by this very process (another apply on another thread)
                heldHere = true;
            }
            if (lock == null) {
                String holder = holder(channel);
                // closing any descriptor of the file drops this process's fcntl locks on it: left open when the
                // holder is this process (one descriptor, in a case only tests make)
                if (!heldHere) channel.close();
                throw new RailyardException.MissingPrerequisite("another railyard apply is changing " + root
                        + (holder.isEmpty() ? "" : " (" + holder + ")") + "; nothing was changed by this one",
                        "let it finish, then run this again (its lock: " + file + ")");
            }
            channel.truncate(0);
            channel.write(ByteBuffer.wrap(("pid " + ProcessHandle.current().pid() + " since " + Instant.now() + "\n")
                    .getBytes(StandardCharsets.UTF_8)), 0);
            return new ApplyLock(channel, lock);
        } catch (IOException e) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // the first failure is the one to report
            }
            throw new RailyardException.MissingPrerequisite("cannot take the apply lock " + file + ": " + e.getMessage(),
                    "check " + lockDir + " (a full or read-only file system?)");
        }
    }

    /** /run/lock where it can be written (a node, as root), else java.io.tmpdir. */
    static Path defaultLockDir() {
        Path run = Path.of("/run/lock");
        return Files.isDirectory(run) && Files.isWritable(run) ? run : Path.of(System.getProperty("java.io.tmpdir"));
    }

    /** The lock file of a root: the same for every spelling of its path (links, "..", relative). */
    static Path lockFile(Path root, Path lockDir) {
        String path;
        try {
            path = root.toRealPath().toString();
        } catch (IOException e) {
            path = root.toAbsolutePath().normalize().toString();
        }
        return lockDir.resolve("railyard-apply-" + Backups.sha256(path).substring(0, 16) + ".lock");
    }

    /** "pid 1234 since ..." as the holder wrote it; empty when it could not be read. */
    private static String holder(FileChannel channel) {
        try {
            ByteBuffer buf = ByteBuffer.allocate(200);
            int n = channel.read(buf, 0);
            return n <= 0 ? "" : new String(buf.array(), 0, n, StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            return "";
        }
    }

    @Override
    public void close() {
        try {
            lock.release();
            channel.close();
        } catch (IOException e) {
            // closing the channel drops the lock whatever happened; the kernel does at exit in any case
        }
    }
}
