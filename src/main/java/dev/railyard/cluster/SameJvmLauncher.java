package dev.railyard.cluster;

import dev.railyard.model.ClusterSpec;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * Runs light railyard steps (inventory, check, the loopback TCP pair) inside this JVM, each on its own thread with
 * its own writers, and hands the rest (GPU, NCCL, storage, RDMA: native libraries and external tools) to a launcher
 * of child processes. For validate without a spec it saves a JVM start per step: the one-node run is the README's
 * first command and should take seconds. A step past its timeout is interrupted (blocking socket calls end with it).
 */
public final class SameJvmLauncher implements Launcher {

    /** Runs {@code railyard ARGS} in this JVM with the given writers and returns its exit code (cli.Main does). */
    @FunctionalInterface
    public interface Commands {
        int execute(List<String> args, PrintWriter out, PrintWriter err);
    }

    private final Commands commands;
    private final Launcher heavy;
    private final Predicate<List<String>> inProcess;
    private final Set<Thread> running = ConcurrentHashMap.newKeySet();
    private final AtomicInteger ids = new AtomicInteger();

    public SameJvmLauncher(Commands commands, Launcher heavy) {
        this(commands, heavy, SameJvmLauncher::light);
    }

    SameJvmLauncher(Commands commands, Launcher heavy, Predicate<List<String>> inProcess) {
        this.commands = commands;
        this.heavy = heavy;
        this.inProcess = inProcess;
    }

    /** inventory, check and bench tcp run here; everything else in a child process. */
    static boolean light(List<String> args) {
        if (args.isEmpty()) return false;
        return switch (args.getFirst()) {
            case "inventory", "check" -> true;
            case "bench" -> args.size() > 1 && args.get(1).equals("tcp");
            default -> false;
        };
    }

    @Override
    public String name() {
        return heavy.name();
    }

    @Override
    public StepResult prepare(ClusterSpec.Node node, Duration timeout) throws InterruptedException {
        return heavy.prepare(node, timeout);
    }

    @Override
    public StepResult run(ClusterSpec.Node node, List<String> args, Duration timeout) throws InterruptedException {
        if (!inProcess.test(args)) return heavy.run(node, args, timeout);
        try (Step step = new Step(node.name(), args)) {
            return step.await(timeout);
        }
    }

    @Override
    public RemoteProcess start(ClusterSpec.Node node, List<String> args, Duration timeout) throws InterruptedException {
        if (!inProcess.test(args)) return heavy.start(node, args, timeout);
        return new Step(node.name(), args);
    }

    /** One in-process step: a thread running the command with its own writers. */
    private final class Step implements RemoteProcess {
        private final String node;
        private final List<String> args;
        private final StringWriter out = new StringWriter();
        private final StringWriter err = new StringWriter();
        private final long started = System.nanoTime();
        private final Thread thread;
        private volatile int exitCode = -1;
        private volatile StepStatus stoppedAs;

        Step(String node, List<String> args) {
            this.node = node;
            this.args = List.copyOf(args);
            this.thread = Thread.ofPlatform().daemon().name("step-" + ids.incrementAndGet() + "-" + args.getFirst()).unstarted(() -> {
                try (PrintWriter o = new PrintWriter(out); PrintWriter e = new PrintWriter(err)) {
                    exitCode = commands.execute(this.args, o, e);
                }
            });
            running.add(thread);
            thread.start();
        }

        @Override
        public boolean isAlive() {
            return thread.isAlive();
        }

        @Override
        public StepResult await(Duration timeout) throws InterruptedException {
            try {
                if (!thread.join(timeout.isNegative() ? Duration.ZERO : timeout)) stop(StepStatus.TIMED_OUT);
            } catch (InterruptedException e) {
                stop(StepStatus.INTERRUPTED);
                throw e;
            }
            running.remove(thread);
            Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
            StepStatus s = stoppedAs;
            if (s == null) return new StepResult(node, args, StepStatus.EXITED, exitCode, out.toString(), err.toString(), elapsed, "");
            String detail = s == StepStatus.TIMED_OUT ? "interrupted after the step timeout of " + timeout.toSeconds() + " s"
                    : "stopped: the run was interrupted";
            return new StepResult(node, args, s, -1, out.toString(), err.toString(), elapsed, detail);
        }

        private void stop(StepStatus as) {
            if (!thread.isAlive()) return;
            stoppedAs = as;
            thread.interrupt();
            try {
                thread.join(Duration.ofSeconds(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        @Override
        public void close() {
            stop(StepStatus.INTERRUPTED);
            running.remove(thread);
        }
    }

    @Override
    public void close() {
        for (Thread t : List.copyOf(running)) t.interrupt();
        running.clear();
        heavy.close();
    }
}
