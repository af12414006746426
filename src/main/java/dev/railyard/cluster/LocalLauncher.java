package dev.railyard.cluster;

import dev.railyard.model.ClusterSpec;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Runs each step as a child process of this same Railyard on this machine: the java binary of this JVM, its own
 * flags (GC, JIT level, AOT cache) and class path, so a step measures what the user's own {@code railyard} would.
 * Used for the one-node run without a spec and for specs whose nodes all live on this machine.
 */
public final class LocalLauncher implements Launcher {

    private final List<String> command;
    private final Set<ChildProcess> running = ConcurrentHashMap.newKeySet();

    /** {@code command} is the argv prefix that starts railyard (java, flags, -cp, main class). */
    public LocalLauncher(List<String> command) {
        this.command = List.copyOf(command);
    }

    /** Re-launches this JVM's own Railyard. */
    public static LocalLauncher ofThisJvm() {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> argv = new ArrayList<>(List.of(java));
        // -agentlib and debug flags would make every child fight for the same port
        ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(a -> !a.startsWith("-agentlib") && !a.startsWith("-javaagent") && !a.startsWith("-Xrunjdwp"))
                .forEach(argv::add);
        argv.addAll(List.of("--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                "dev.railyard.cli.Main"));
        return new LocalLauncher(argv);
    }

    @Override
    public String name() {
        return "local";
    }

    @Override
    public StepResult prepare(ClusterSpec.Node node, Duration timeout) {
        // the same JVM and jar are on this machine already: nothing to copy
        return new StepResult(node.name(), List.of(), StepStatus.EXITED, 0, "", "", Duration.ZERO, "");
    }

    @Override
    public StepResult run(ClusterSpec.Node node, List<String> railyardArgs, Duration timeout) throws InterruptedException {
        ChildProcess p;
        try {
            p = launch(node, railyardArgs);
        } catch (IOException e) {
            return launchFailed(node, railyardArgs, e);
        }
        try {
            return p.await(timeout);
        } finally {
            running.remove(p);
        }
    }

    @Override
    public RemoteProcess start(ClusterSpec.Node node, List<String> railyardArgs, Duration timeout) {
        try {
            ChildProcess p = launch(node, railyardArgs);
            return new RemoteProcess() {
                @Override public boolean isAlive() { return p.isAlive(); }
                @Override public StepResult await(Duration t) throws InterruptedException {
                    try {
                        return p.await(t);
                    } finally {
                        running.remove(p);
                    }
                }
                @Override public void close() {
                    p.close();
                    running.remove(p);
                }
            };
        } catch (IOException e) {
            StepResult failed = launchFailed(node, railyardArgs, e);
            return new RemoteProcess() {
                @Override public boolean isAlive() { return false; }
                @Override public StepResult await(Duration t) { return failed; }
                @Override public void close() { }
            };
        }
    }

    private ChildProcess launch(ClusterSpec.Node node, List<String> railyardArgs) throws IOException {
        List<String> argv = new ArrayList<>(command);
        argv.addAll(railyardArgs);
        ChildProcess p = ChildProcess.start(node.name(), railyardArgs,
                new ProcessBuilder(TerminalSignals.ignoring(argv)));
        running.add(p);
        return p;
    }

    private static StepResult launchFailed(ClusterSpec.Node node, List<String> args, IOException e) {
        return RunningSteps.notStarted(node, args, e, "could not start railyard locally: " + e.getMessage());
    }

    /** Kills every step still running, with its process tree. */
    @Override
    public void close() {
        for (ChildProcess p : List.copyOf(running)) p.close();
        running.clear();
    }
}
