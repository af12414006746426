package dev.railyard.cluster;

import dev.railyard.model.ClusterSpec;

import java.time.Duration;
import java.util.List;

/**
 * A launcher that remembers whether a step it ran ended {@link StepStatus#INTERRUPTED}: the user's Ctrl-C reached
 * that step (or killed its spawn helper) before the JVM's own shutdown hook interrupted validate's thread. Without
 * it a run whose steps were all stopped could go on through its empty later stages and call itself complete.
 * Only blocking steps count: a pair test's server closed after its client is done ends INTERRUPTED by design.
 */
final class StopNoticingLauncher implements Launcher {

    private final Launcher inner;
    private volatile boolean stepStopped;

    StopNoticingLauncher(Launcher inner) {
        this.inner = inner;
    }

    /** True once a step run through this launcher was stopped by an interrupt. */
    boolean stepStopped() {
        return stepStopped;
    }

    @Override
    public String name() {
        return inner.name();
    }

    @Override
    public StepResult prepare(ClusterSpec.Node node, Duration timeout) throws InterruptedException {
        return noticed(inner.prepare(node, timeout));
    }

    @Override
    public StepResult reach(ClusterSpec.Node node, Duration timeout) throws InterruptedException {
        return noticed(inner.reach(node, timeout));
    }

    @Override
    public StepResult run(ClusterSpec.Node node, List<String> railyardArgs, Duration timeout) throws InterruptedException {
        return noticed(inner.run(node, railyardArgs, timeout));
    }

    @Override
    public RemoteProcess start(ClusterSpec.Node node, List<String> railyardArgs, Duration timeout) throws InterruptedException {
        return inner.start(node, railyardArgs, timeout);
    }

    @Override
    public void close() {
        inner.close();
    }

    private StepResult noticed(StepResult r) {
        if (r.status() == StepStatus.INTERRUPTED) stepStopped = true;
        return r;
    }
}
