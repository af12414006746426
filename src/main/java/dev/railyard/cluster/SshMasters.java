package dev.railyard.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * One OpenSSH master connection per node for a launcher's life, so a run pays the ssh handshake (and the node's sshd
 * fork and key exchange) once per node rather than once per step: on a 2-core coordinator the sweep's four pairs at
 * a time each paid one. Control sockets live in a directory of this launcher's own (mode 700), named by ssh's
 * {@code %C} hash. A master is opened with {@code -f} once the node is first reached and ends at {@link #close},
 * or, if the coordinator is killed outright, {@link #IDLE} after its last step ({@code ControlPersist}).
 *
 * <p>A node's sshd allows ten sessions on one connection by default ({@code MaxSessions}): a step that would be the
 * {@link #SESSIONS}th in flight on a node connects on its own instead.
 */
final class SshMasters implements AutoCloseable {

    /** How long a master outlives its last step when nothing closes it (a coordinator killed with SIGKILL). */
    static final Duration IDLE = Duration.ofMinutes(2);
    /** Steps carried at once by one master, below sshd's default MaxSessions of 10. */
    static final int SESSIONS = 8;
    private static final Duration EXIT_WAIT = Duration.ofSeconds(5);

    private final Path dir;
    private final Map<String, Master> masters = new ConcurrentHashMap<>();
    private final java.util.concurrent.atomic.AtomicInteger logs = new java.util.concurrent.atomic.AtomicInteger();

    private record Master(SshCommand command, Semaphore sessions, boolean open, Path log) {}

    private SshMasters(Path dir) {
        this.dir = dir;
    }

    /** Masters with sockets in a new private directory; empty when none can be made (steps then connect alone). */
    static Optional<SshMasters> create() {
        try {
            return Optional.of(new SshMasters(Files.createTempDirectory("railyard-ssh-",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")))));
        } catch (IOException | UnsupportedOperationException e) {
            return Optional.empty();
        }
    }

    /** The control socket for {@code %C}: short enough for a socket path (108 bytes) under any temp directory. */
    String controlPath() {
        return dir.resolve("%C").toString();
    }

    /**
     * Opens the node's master unless one was tried already. A master that cannot be opened is no failure here: the
     * node's steps connect on their own and say why the node is not reached.
     */
    void open(String node, SshCommand command, Duration timeout) throws InterruptedException {
        if (masters.containsKey(node)) return;
        boolean open = false;
        Path log = dir.resolve("master-" + logs.incrementAndGet() + ".log");
        try {
            Process p = new ProcessBuilder(TerminalSignals.ignoring(command.masterArgv(controlPath(), IDLE, timeout,
                    log.toString())))
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            // -f: ssh returns once the connection is up and the master has gone to the background
            if (p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                open = p.exitValue() == 0;
            } else {
                p.destroyForcibly();
            }
        } catch (IOException e) {
            open = false;
        }
        masters.putIfAbsent(node, new Master(command, new Semaphore(SESSIONS), open, log));
    }

    /**
     * What the node's master last wrote: a step over it that ssh ended with 255 and no words of its own (the master
     * is what saw the host go) is described by these.
     */
    String lastWords(String node) {
        Master m = masters.get(node);
        if (m == null) return "";
        try {
            return Files.readString(m.log());
        } catch (IOException e) {
            return "";
        }
    }

    /**
     * A session on the node's master for one step, released when {@code release} is run; empty when the step must
     * connect on its own (no master, or the master carries {@link #SESSIONS} steps already).
     */
    Optional<Runnable> session(String node) {
        Master m = masters.get(node);
        if (m == null || !m.open() || !m.sessions().tryAcquire()) return Optional.empty();
        return Optional.of(m.sessions()::release);
    }

    /** Ends every master ({@code ssh -O exit}) and removes the socket directory. */
    @Override
    public void close() {
        List<Process> exits = new ArrayList<>();
        for (Master m : masters.values()) {
            if (!m.open()) continue;
            try {
                exits.add(new ProcessBuilder(m.command().exitArgv(controlPath()))
                        .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                        .redirectError(ProcessBuilder.Redirect.DISCARD).start());
            } catch (IOException ignored) {
                // no ssh to ask: the master ends IDLE after its last step
            }
        }
        for (Process p : exits) {
            try {
                if (!p.waitFor(EXIT_WAIT.toMillis(), TimeUnit.MILLISECONDS)) p.destroyForcibly();
            } catch (InterruptedException e) {
                p.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
        masters.clear();
        // a master removes its own socket as it ends, maybe while this lists: each name is removed on its own
        try (Stream<Path> files = Files.list(dir)) {
            for (Path p : files.toList()) {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException ignored) {
                    // gone already, or not ours to remove: the directory below then stays for the temp cleaner
                }
            }
            Files.deleteIfExists(dir);
        } catch (IOException ignored) {
            // left for the temp directory's cleaner
        }
    }
}
