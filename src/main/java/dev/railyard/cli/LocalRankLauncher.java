package dev.railyard.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@code --procs N}: starts N copies of this JVM, each one rank with its own GPU, meeting at a loopback rendezvous.
 * The children inherit stdout/stderr; only rank 0 prints the table. The first rank to fail stops the others (a rank
 * left alone would wait for its peers inside NCCL for ever), and so does the timeout.
 */
final class LocalRankLauncher {

    /** How long stopped ranks get to exit on SIGTERM (and print what they measured) before SIGKILL. */
    private static final Duration GRACE = Duration.ofSeconds(10);

    private LocalRankLauncher() {
    }

    static int launch(int procs, List<String> originalArgs, Duration timeout, PrintWriter err)
            throws IOException, InterruptedException {
        int port;
        try (ServerSocket probe = new ServerSocket(0)) {
            port = probe.getLocalPort();
        }
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> passThrough = withoutLauncherOptions(originalArgs);
        List<Process> children = new ArrayList<>();
        try {
            for (int r = 0; r < procs; r++) {
                // the ranks run with this JVM's own flags (GC, JIT, AOT cache), so --procs measures what -g measures
                List<String> argv = new ArrayList<>(List.of(java));
                argv.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
                argv.addAll(List.of("--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                        Main.class.getName()));
                argv.addAll(passThrough);
                argv.addAll(List.of("--rank", String.valueOf(r), "--nranks", String.valueOf(procs),
                        "--device", String.valueOf(r), "--rendezvous", "127.0.0.1:" + port));
                children.add(new ProcessBuilder(argv).inheritIO().start());
            }
            return await(children, timeout, err);
        } finally {
            stop(children);
        }
    }

    /** The worst status, or the first failure's as soon as it happens. */
    static int await(List<Process> children, Duration timeout, PrintWriter err) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<CompletableFuture<Process>> pending = new ArrayList<>();
        for (Process p : children) pending.add(p.onExit());
        int worst = ExitCodes.OK;
        while (!pending.isEmpty()) {
            long left = deadline - System.nanoTime();
            try {
                CompletableFuture.anyOf(pending.toArray(CompletableFuture[]::new)).get(Math.max(1, left), TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                say(err, "the ranks did not finish within " + timeout.toSeconds() + " s (--procs-timeout); stopping them");
                return ExitCodes.PREREQUISITE;
            } catch (ExecutionException e) {
                throw new IllegalStateException("waiting for a rank failed", e.getCause());
            }
            for (var it = pending.iterator(); it.hasNext(); ) {
                CompletableFuture<Process> f = it.next();
                if (!f.isDone()) continue;
                it.remove();
                Process p = f.join();
                int rank = children.indexOf(p);
                int code = status(p.exitValue());
                if (code != ExitCodes.OK && code != ExitCodes.FAIL_FINDING) {
                    say(err, "rank " + rank + " ended with status " + p.exitValue() + "; stopping the other ranks");
                    return code;
                }
                worst = Math.max(worst, code);
            }
        }
        return worst;
    }

    /**
     * A rank's status as one of ours: Railyard's own codes pass through; a rank killed by a signal or a crashed JVM
     * (128 + signal, 134 for an abort) is a failure of the GPU stack or the machine, a missing prerequisite.
     */
    static int status(int exitValue) {
        return exitValue >= ExitCodes.OK && exitValue <= ExitCodes.INTERNAL ? exitValue : ExitCodes.PREREQUISITE;
    }

    private static void stop(List<Process> children) throws InterruptedException {
        for (Process p : children) if (p.isAlive()) p.destroy();
        long deadline = System.nanoTime() + GRACE.toNanos();
        for (Process p : children) {
            long left = deadline - System.nanoTime();
            if (left <= 0 || !p.waitFor(left, TimeUnit.NANOSECONDS)) p.destroyForcibly();
        }
    }

    private static void say(PrintWriter err, String line) {
        err.println("railyard: " + line);
        err.flush();
    }

    private static List<String> withoutLauncherOptions(List<String> args) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("--procs") || a.equals("--procs-timeout")) {
                i++;
            } else if (!a.startsWith("--procs=") && !a.startsWith("--procs-timeout=")) {
                out.add(a);
            }
        }
        return out;
    }
}
