package dev.railyard.cluster;

import dev.railyard.model.ClusterSpec;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The steps a launcher has running, so that {@code close()} (Ctrl-C, the end of a run) can stop each with its
 * remote process group; a step leaves the set when it is awaited or closed. Also the small results launchers share.
 */
final class RunningSteps {

    private final Set<WrappedStep> running = ConcurrentHashMap.newKeySet();

    /** Waits for a step started for {@code run}; it leaves the set however it ends. */
    StepResult await(WrappedStep step, Duration timeout) throws InterruptedException {
        running.add(step);
        try {
            return step.await(timeout);
        } finally {
            running.remove(step);
        }
    }

    /** A started server step, handed to the caller. */
    RemoteProcess track(WrappedStep step) {
        running.add(step);
        return new RemoteProcess() {
            @Override
            public boolean isAlive() {
                return step.isAlive();
            }

            @Override
            public StepResult await(Duration timeout) throws InterruptedException {
                try {
                    return step.await(timeout);
                } finally {
                    running.remove(step);
                }
            }

            @Override
            public void close() {
                step.close();
                running.remove(step);
            }
        };
    }

    /**
     * Stops every step still running, side by side: each may wait seconds for its remote group to end, and the
     * common pool has one thread on a 2-core machine, so one virtual thread per step.
     */
    void closeAll() {
        try (ExecutorService each = Executors.newVirtualThreadPerTaskExecutor()) {
            for (WrappedStep step : List.copyOf(running)) each.execute(step::close);
        }
        running.clear();
    }

    /** A step that never started (the node could not be prepared): it has its result already. */
    static RemoteProcess ended(StepResult result) {
        return new RemoteProcess() {
            @Override public boolean isAlive() { return false; }
            @Override public StepResult await(Duration timeout) { return result; }
            @Override public void close() { }
        };
    }

    /**
     * A step whose local transport could not be started: a launch failure in {@code words}, except where the user's
     * Ctrl-C killed the JDK's spawn helper as it started ({@link TerminalSignals#startCutBySignal}): interrupted.
     */
    static StepResult notStarted(ClusterSpec.Node node, List<String> args, IOException e, String words) {
        if (TerminalSignals.startCutBySignal(e)) {
            return new StepResult(node.name(), args, StepStatus.INTERRUPTED, -1, "", "", Duration.ZERO,
                    "stopped: the run was interrupted as this step started");
        }
        return new StepResult(node.name(), args, StepStatus.LAUNCH_FAILED, -1, "", "", Duration.ZERO, words);
    }

    /** A preparation step that went as it should, with what it did in {@code detail}. */
    static StepResult done(ClusterSpec.Node node, long startNanos, String detail) {
        return new StepResult(node.name(), List.of(), StepStatus.EXITED, 0, "", "",
                Duration.ofNanos(System.nanoTime() - startNanos), detail);
    }

    /** A preparation step whose command ran but did not do its job: the node cannot run railyard. */
    static StepResult failed(ClusterSpec.Node node, StepResult from, String detail) {
        return new StepResult(node.name(), from.args(), StepStatus.LAUNCH_FAILED, from.exitCode(), from.stdout(),
                from.stderr(), from.elapsed(), detail);
    }

    static boolean prepared(StepResult r) {
        return r.status() == StepStatus.EXITED && r.exitCode() == 0;
    }
}
