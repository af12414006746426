package dev.railyard.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * One step running on a node through a local transport process ({@code ssh}, {@code srun}) under
 * {@link ProcessGroupWrapper}. Its stdin is kept open and written to never: closing it is how the remote process
 * group is told to die. Only if the transport does not end after that (a dead link) is it killed locally as well.
 */
final class WrappedStep implements RemoteProcess {

    /** What the local transport process is, for the words of a result. */
    interface Transport {
        /** Where the step runs, as the report names it ("10.0.0.3", "n1"). */
        String where();

        /** Why the node was not reached, when the transport's exit code and stderr say it was not. */
        Optional<String> unreachable(int exitCode, String stderr);
    }

    /** Blocking pipe reads on virtual threads: a 2-core machine's common pool has one thread. */
    private static final Executor DRAIN = r -> Thread.ofVirtual().name("step-output").start(r);
    /** How long ssh may take to carry the end of stdin over and report the remote group gone. */
    private static final Duration STOP_WAIT = Duration.ofSeconds(ProcessGroupWrapper.GRACE_SECONDS + 8);

    private final String node;
    private final List<String> args;
    private final Transport transport;
    private final Process process;
    private final OutputStream stdin;
    private final long startedNanos;
    private final CompletableFuture<String> out;
    private final CompletableFuture<String> err;
    private volatile StepStatus killedAs;
    private volatile Duration killedAfter = Duration.ZERO;
    private final boolean stdinIsKillSwitch;
    private final boolean shielded;

    private WrappedStep(String node, List<String> args, Transport transport, Process process,
                        boolean stdinIsKillSwitch, boolean shielded) {
        this.stdinIsKillSwitch = stdinIsKillSwitch;
        this.shielded = shielded;
        this.node = node;
        this.args = List.copyOf(args);
        this.transport = transport;
        this.process = process;
        this.stdin = process.getOutputStream();
        this.startedNanos = System.nanoTime();
        this.out = CompletableFuture.supplyAsync(() -> drain(process.getInputStream()), DRAIN);
        this.err = CompletableFuture.supplyAsync(() -> drain(process.getErrorStream()), DRAIN);
    }

    /**
     * Starts {@code transportArgv} (ssh or srun, ending in the wrapped command); {@code args} is what the report
     * shows (railyard's arguments).
     */
    static WrappedStep start(String node, List<String> args, Transport transport, List<String> transportArgv)
            throws IOException {
        return start(node, args, transport, transportArgv, Map.of());
    }

    /** The same with variables added to the transport's environment (SLURM_CONF for a test cluster). */
    static WrappedStep start(String node, List<String> args, Transport transport, List<String> transportArgv,
                             Map<String, String> extraEnv) throws IOException {
        return start(node, args, transport, transportArgv, extraEnv, false);
    }

    /**
     * The same; {@code shielded}: the transport ignores the terminal's signals ({@link TerminalSignals}), so only
     * the launcher ends it.
     */
    static WrappedStep start(String node, List<String> args, Transport transport, List<String> transportArgv,
                             Map<String, String> extraEnv, boolean shielded) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(shielded ? TerminalSignals.ignoring(transportArgv) : transportArgv);
        pb.environment().putAll(extraEnv);
        return new WrappedStep(node, args, transport, pb.start(), true, shielded);
    }

    /**
     * The same in a session of its own ({@link TerminalSignals#ownSession}): for srun, which sets its own handlers
     * for the terminal's signals (a second Ctrl-C within a second cancels its step), so ignoring them is not enough.
     */
    static WrappedStep startInOwnSession(String node, List<String> args, Transport transport,
                                        List<String> transportArgv, Map<String, String> extraEnv) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(TerminalSignals.ownSession(transportArgv));
        pb.environment().putAll(extraEnv);
        return new WrappedStep(node, args, transport, pb.start(), true, true);
    }

    /**
     * Starts a transport with a local file as the remote command's stdin (a bundle to unpack), so without the
     * wrapper: the remote side ends when the stream breaks, and a timeout kills the local transport at once.
     */
    static WrappedStep feeding(String node, Transport transport, List<String> transportArgv, Path stdinFile)
            throws IOException {
        Process p = new ProcessBuilder(TerminalSignals.ignoring(transportArgv)).redirectInput(stdinFile.toFile()).start();
        return new WrappedStep(node, List.of(), transport, p, false, true);
    }

    /** The local transport process (tests kill it as a crashing coordinator would). */
    ProcessHandle transportProcess() {
        return process.toHandle();
    }

    @Override
    public boolean isAlive() {
        return process.isAlive();
    }

    @Override
    public StepResult await(Duration timeout) throws InterruptedException {
        boolean ended;
        try {
            ended = process.waitFor(Math.max(0, timeout.toMillis()), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            stop(StepStatus.INTERRUPTED);
            throw e;
        }
        if (!ended) {
            killedAfter = timeout;
            stop(StepStatus.TIMED_OUT);
        }
        return result();
    }

    @Override
    public void close() {
        stop(StepStatus.INTERRUPTED);
    }

    /** Ends the remote process group (end of stdin), then the local ssh if it lingers. */
    private void stop(StepStatus as) {
        if (!process.isAlive()) return;
        killedAs = as;
        boolean ended = false;
        try {
            if (stdinIsKillSwitch) {
                stdin.close();
                ended = process.waitFor(STOP_WAIT.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (IOException ignored) {
            // ssh is gone already; destroying it below is a no-op
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (!ended) {
            process.destroyForcibly();
            try {
                process.waitFor(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private StepResult result() {
        Duration elapsed = Duration.ofNanos(System.nanoTime() - startedNanos);
        String stdout = out.join();
        String stderr = err.join();
        StepStatus killed = killedAs;
        if (killed == StepStatus.TIMED_OUT) {
            return new StepResult(node, args, killed, -1, stdout, stderr, elapsed,
                    "killed with its remote process group on " + transport.where() + " after the step timeout of "
                            + killedAfter.toSeconds() + " s");
        }
        if (killed != null) {
            return new StepResult(node, args, killed, -1, stdout, stderr, elapsed,
                    "stopped with its remote process group: the run was interrupted");
        }
        int code = process.exitValue();
        if (shielded && TerminalSignals.endedBeforeShielded(code) && stderr.isBlank()) {
            // only a Ctrl-C in the moment before the shield can end a shielded transport so, before it printed a
            // word: srun passes on its task's 128 + N with "task 0: Terminated", a remote step's own exit code
            return new StepResult(node, args, StepStatus.INTERRUPTED, -1, stdout, stderr, elapsed,
                    "stopped: the run was interrupted as this step started");
        }
        Optional<String> unreachable = transport.unreachable(code, stderr);
        if (unreachable.isPresent()) {
            return new StepResult(node, args, StepStatus.UNREACHABLE, -1, stdout, stderr, elapsed,
                    unreachable.get());
        }
        if (code == 127) {
            return new StepResult(node, args, StepStatus.LAUNCH_FAILED, code, stdout, stderr, elapsed,
                    "the command was not found on " + transport.where() + ": " + stderr.strip());
        }
        return new StepResult(node, args, StepStatus.EXITED, code, stdout, stderr, elapsed, "");
    }

    private static String drain(InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
