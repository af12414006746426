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
import java.util.Optional;
import java.util.function.Function;

/**
 * One measurement at a time on a node: two benchmarks (or two validate runs' benchmarks) at once each measure half
 * a NIC, half a GPU or half a disk and both report it as the node's. The lock is the kernel's (fcntl) on a file in a
 * lock directory, named after the node, so the kernel drops it when the process ends, however it ends.
 *
 * <p>A benchmark run by hand takes the whole file exclusively. The steps of one validate run share one byte of it,
 * their run's slot: a run's loopback server and client, or its GPU and storage steps, run side by side on a node by
 * design. A step then checks that no other run holds a slot (it takes the rest of the file exclusively and lets go
 * at once), so two validate runs on one node, even from two coordinators, never measure it together. A hand-run
 * benchmark during a run, a step during a hand-run benchmark, or a step of a second run, is refused at once with who
 * holds it. Two runs whose ids share a slot (one in 2^30) are taken for one.
 *
 * <p>The directory is {@code RAILYARD_LOCK_DIR} (environment) or the {@code railyard.lockDir} system property when
 * set, else /run/lock where it can be written, else the temporary directory. The file's name carries the node's
 * name ({@code RAILYARD_NODE}, else the host name), so nodes that share a lock directory (network-namespace nodes of
 * one machine) never lock each other out, and test runs of separate checkouts each point it at their own directory.
 */
public final class NodeLock implements AutoCloseable {

    /** How a run holds the lock: alone (a benchmark run by hand), or beside the other steps of one validate run. */
    public enum Mode { ALONE, STEP_OF_RUN }

    private final FileChannel channel;
    private final FileLock lock;

    private NodeLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Takes this node's lock for {@code what} ("bench tcp client"), or says who holds it (exit 3): never waits for
     * the holder.
     * {@code run} is the validate run a step belongs to, empty for a benchmark run by hand.
     */
    public static NodeLock acquire(String what, Optional<String> run) {
        return acquire(what, run, lockDir(System::getenv), nodeName(System::getenv));
    }

    static NodeLock acquire(String what, Optional<String> run, Path dir, String node) {
        Path file = dir.resolve("railyard-bench-" + safe(node) + ".lock");
        FileChannel channel;
        try {
            Files.createDirectories(dir);
            channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new RailyardException.MissingPrerequisite("cannot open the benchmark lock " + file + ": "
                    + IoErrors.describe(e), "set RAILYARD_LOCK_DIR to a directory this user can write");
        }
        boolean shared = run.isPresent();
        long slot = run.map(NodeLock::slot).orElse(0L);
        FileLock lock;
        boolean heldHere = false;
        try {
            lock = shared ? stepLock(channel, dir.resolve("railyard-bench-" + safe(node) + ".gate"), slot)
                    : channel.tryLock(0, Long.MAX_VALUE, false);
        } catch (OverlappingFileLockException e) {
            // this very process holds it (steps run inside validate's own JVM): a step shares it. The descriptor
            // stays open either way: closing any descriptor of the file drops this process's fcntl locks on it
            if (shared) return new NodeLock(channel, null);
            lock = null;
            heldHere = true;
        } catch (IOException e) {
            close(channel);
            throw new RailyardException.MissingPrerequisite("cannot take the benchmark lock " + file + ": "
                    + IoErrors.describe(e), "check " + dir + " (a full or read-only file system?)");
        }
        if (lock == null) {
            String holder = holder(channel);
            // a step refused may share this JVM with another run's in-process steps: closing any descriptor of the
            // file would drop their lock, so it stays open (the refused process ends soon in any case)
            if (!heldHere && !shared) close(channel);
            throw new RailyardException.MissingPrerequisite("another railyard benchmark is running on " + node
                    + (holder.isEmpty() ? "" : " (" + holder + ")") + "; " + what + " would measure the node "
                    + "while it is busy", "let it finish, then run this again (the lock: " + file + ")");
        }
        try {
            String line = (run.map(r -> "steps of validate run " + r).orElse(what + ", pid "
                    + ProcessHandle.current().pid())) + ", since " + Instant.now().truncatedTo(ChronoUnit.SECONDS) + "\n";
            if (!shared) channel.truncate(0);
            channel.write(ByteBuffer.wrap(line.getBytes(StandardCharsets.UTF_8)), 0);
        } catch (IOException e) {
            // who holds it is a courtesy for the next one refused; the lock itself is taken
        }
        return new NodeLock(channel, lock);
    }

    /** The byte a validate run's steps share: 1 to 2^30, from the run id, the same in every process. */
    static long slot(String run) {
        return 1 + (run.hashCode() & 0x3fff_ffffL);
    }

    /**
     * A step's slot, taken only when no other run holds one. The check runs behind a gate (a second file, locked for
     * the check alone), so two steps of one run starting together never see each other's check and refuse each
     * other; a step waits at the gate only for another step's check, never for a benchmark.
     */
    private static FileLock stepLock(FileChannel channel, Path gateFile, long slot) throws IOException {
        // fcntl locks belong to the process: steps inside one JVM pass the gate one at a time here instead
        synchronized (NodeLock.class) {
            try (FileChannel gate = FileChannel.open(gateFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                 FileLock passing = gate.lock()) {
                FileLock lock = channel.tryLock(slot, 1, true);
                if (lock != null && !othersFree(channel, slot)) {
                    lock.release();
                    return null;
                }
                return lock;
            }
        }
    }

    /**
     * Whether no other run's steps (and no benchmark by hand) hold any byte but {@code slot}: the rest of the file
     * taken exclusively, then let go at once. Two runs that start together may both be refused; never both let in.
     */
    private static boolean othersFree(FileChannel channel, long slot) throws IOException {
        FileLock below;
        try {
            below = channel.tryLock(0, slot, false);
        } catch (OverlappingFileLockException e) {
            return false; // another run's steps inside this very JVM
        }
        if (below == null) return false;
        try {
            FileLock above = channel.tryLock(slot + 1, Long.MAX_VALUE - slot - 1, false);
            if (above == null) return false;
            above.release();
            return true;
        } catch (OverlappingFileLockException e) {
            return false;
        } finally {
            below.release();
        }
    }

    /** RAILYARD_LOCK_DIR, the railyard.lockDir property, /run/lock where it can be written, else java.io.tmpdir. */
    static Path lockDir(Function<String, String> env) {
        String set = Optional.ofNullable(env.apply("RAILYARD_LOCK_DIR")).filter(s -> !s.isBlank())
                .orElse(System.getProperty("railyard.lockDir", ""));
        if (!set.isBlank()) return Path.of(set);
        Path run = Path.of("/run/lock");
        return Files.isDirectory(run) && Files.isWritable(run) ? run : Path.of(System.getProperty("java.io.tmpdir"));
    }

    /** RAILYARD_NODE, else the kernel's host name, else "localhost". */
    static String nodeName(Function<String, String> env) {
        String set = env.apply("RAILYARD_NODE");
        if (set != null && !set.isBlank()) return set.strip();
        try {
            String h = Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
            if (!h.isEmpty()) return h;
        } catch (IOException | RuntimeException e) {
            // not Linux, or no procfs: the fallback names the lock
        }
        return "localhost";
    }

    /** A node's name as one file-name word: anything outside [A-Za-z0-9._-] becomes '_'. */
    static String safe(String node) {
        String s = node.replaceAll("[^A-Za-z0-9._-]", "_");
        return s.isEmpty() || s.startsWith(".") ? "_" + s : s;
    }

    /** "bench tcp client, pid 1234, since ..." as the holder wrote it; empty when it could not be read. */
    static String holder(FileChannel channel) {
        try {
            ByteBuffer buf = ByteBuffer.allocate(200);
            int n = channel.read(buf, 0);
            return n <= 0 ? "" : new String(buf.array(), 0, n, StandardCharsets.UTF_8).strip().lines().findFirst()
                    .orElse("");
        } catch (IOException e) {
            return "";
        }
    }

    static void close(FileChannel channel) {
        try {
            channel.close();
        } catch (IOException ignored) {
            // the first failure is the one to report
        }
    }

    @Override
    public void close() {
        // a step that shares its own JVM's lock holds no FileLock and must not close the descriptor: closing any
        // descriptor of the file drops this process's fcntl locks on it
        if (lock == null) return;
        try {
            lock.release();
            channel.close();
        } catch (IOException e) {
            // closing the channel drops the lock whatever happened; the kernel does at exit in any case
        }
    }
}
