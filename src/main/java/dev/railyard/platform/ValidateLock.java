package dev.railyard.platform;

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
import java.time.temporal.ChronoUnit;

/**
 * One validate run per cluster from this machine: a second run against the same cluster would measure nodes that the
 * first is measuring, and each would blame the other's traffic on the fabric. Held by the coordinator for the whole
 * run, in the same lock directory as {@link NodeLock}, on a file named after the cluster. A second run is refused
 * at once (exit 3) with the run that holds it. Runs from two coordinators meet on the nodes instead: there the
 * first run's steps hold each node's {@link NodeLock} and the second run's steps are refused.
 */
public final class ValidateLock implements AutoCloseable {

    private final FileChannel channel;
    private final FileLock lock;

    private ValidateLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /** Takes the lock of {@code cluster} for run {@code runId}, or says which run holds it (exit 3): never waits. */
    public static ValidateLock acquire(String cluster, String runId) {
        return acquire(cluster, runId, NodeLock.lockDir(System::getenv));
    }

    static ValidateLock acquire(String cluster, String runId, Path dir) {
        Path file = dir.resolve("railyard-validate-" + NodeLock.safe(cluster) + ".lock");
        FileChannel channel;
        try {
            Files.createDirectories(dir);
            channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new RailyardException.MissingPrerequisite("cannot open the validate lock " + file + ": "
                    + IoErrors.describe(e), "set RAILYARD_LOCK_DIR to a directory this user can write");
        }
        FileLock lock;
        boolean heldHere = false;
        try {
            lock = channel.tryLock();
        } catch (OverlappingFileLockException e) {
            lock = null; // a run inside this very JVM holds it; its descriptor must stay open
            heldHere = true;
        } catch (IOException e) {
            NodeLock.close(channel);
            throw new RailyardException.MissingPrerequisite("cannot take the validate lock " + file + ": "
                    + IoErrors.describe(e), "check " + dir + " (a full or read-only file system?)");
        }
        if (lock == null) {
            String holder = NodeLock.holder(channel);
            if (!heldHere) NodeLock.close(channel);
            throw new RailyardException.MissingPrerequisite("another validate of " + cluster + " is running from this "
                    + "machine" + (holder.isEmpty() ? "" : " (" + holder + ")") + "; a second run would measure its "
                    + "nodes while they are busy", "let it finish, or stop it, then run this again (the lock: " + file + ")");
        }
        try {
            String line = "validate run " + runId + ", pid " + ProcessHandle.current().pid() + ", since "
                    + Instant.now().truncatedTo(ChronoUnit.SECONDS) + "\n";
            channel.truncate(0);
            channel.write(ByteBuffer.wrap(line.getBytes(StandardCharsets.UTF_8)), 0);
        } catch (IOException e) {
            // who holds it is a courtesy for the next one refused; the lock itself is taken
        }
        return new ValidateLock(channel, lock);
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
