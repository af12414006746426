package dev.railyard.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * One local child process of a launcher step, its output drained on the side so a chatty child never blocks on a
 * full pipe. Killing it kills its descendants first: a railyard step may itself have started perftest or fio.
 */
final class ChildProcess implements RemoteProcess {

    /** Blocking pipe reads on virtual threads: the common pool has one thread on a 2-core machine. */
    private static final Executor DRAIN = r -> Thread.ofVirtual().name("step-output").start(r);

    private final String node;
    private final List<String> args;
    private final Process process;
    private final long startedNanos;
    private final CompletableFuture<String> out;
    private final CompletableFuture<String> err;
    private volatile StepStatus killedAs;

    private ChildProcess(String node, List<String> args, Process process) {
        this.node = node;
        this.args = List.copyOf(args);
        this.process = process;
        this.startedNanos = System.nanoTime();
        this.out = CompletableFuture.supplyAsync(() -> drain(process.getInputStream()), DRAIN);
        this.err = CompletableFuture.supplyAsync(() -> drain(process.getErrorStream()), DRAIN);
    }

    /** Starts {@code builder}, whose command ignores the terminal's signals ({@link TerminalSignals#ignoring}). */
    static ChildProcess start(String node, List<String> args, ProcessBuilder builder) throws IOException {
        Process p = builder.start();
        try {
            p.getOutputStream().close();
        } catch (IOException ignored) {
            // railyard steps read no stdin
        }
        return new ChildProcess(node, args, p);
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
            kill(StepStatus.INTERRUPTED);
            throw e;
        }
        if (!ended) kill(StepStatus.TIMED_OUT);
        return result(timeout);
    }

    /** The step as it ended; call after the process is gone. */
    private StepResult result(Duration timeout) {
        Duration elapsed = Duration.ofNanos(System.nanoTime() - startedNanos);
        String stdout = out.join();
        String stderr = err.join();
        StepStatus killed = killedAs;
        if (killed == null && TerminalSignals.endedBeforeShielded(process.exitValue())) {
            // started shielded (LocalLauncher): only a Ctrl-C in the moment before the shield can end it so
            return new StepResult(node, args, StepStatus.INTERRUPTED, -1, stdout, stderr, elapsed,
                    "stopped: the run was interrupted as this step started");
        }
        if (killed == null) {
            return new StepResult(node, args, StepStatus.EXITED, process.exitValue(), stdout, stderr, elapsed, "");
        }
        String detail = killed == StepStatus.TIMED_OUT
                ? "killed with its process tree after the step timeout of " + timeout.toSeconds() + " s"
                : "stopped: the run was interrupted";
        return new StepResult(node, args, killed, -1, stdout, stderr, elapsed, detail);
    }

    private void kill(StepStatus as) {
        if (!process.isAlive()) return;
        killedAs = as;
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        try {
            process.waitFor(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        kill(StepStatus.INTERRUPTED);
    }

    /**
     * Everything the child wrote. A pipe of a killed child may be closed under the reader ("Stream closed": the JDK
     * closes it when the process is reaped), so what was read until then is the output, not an error.
     */
    private static String drain(InputStream in) {
        java.io.ByteArrayOutputStream read = new java.io.ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        try (in) {
            for (int n; (n = in.read(buf)) >= 0; ) read.write(buf, 0, n);
        } catch (IOException e) {
            // the pipe went away with the process: keep what came through
        }
        return read.toString(StandardCharsets.UTF_8);
    }
}
