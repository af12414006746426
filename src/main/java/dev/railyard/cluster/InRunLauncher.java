package dev.railyard.cluster;

import dev.railyard.model.ClusterSpec;

import java.time.Duration;
import java.util.List;

/**
 * A launcher that marks the benchmark steps of one validate run with {@code --in-run RUN}: on a node they then
 * share its benchmark lock with each other (a loopback server beside its client, GPU beside storage) and with no
 * one else, so a benchmark run by hand meanwhile, or another run's steps, are refused instead of measuring a busy
 * node.
 */
final class InRunLauncher implements Launcher {

    private final Launcher inner;
    private final String runId;

    InRunLauncher(Launcher inner, String runId) {
        this.inner = inner;
        this.runId = runId;
    }

    /** {@code args} with {@code --in-run RUN} after them when they run a benchmark; other steps unchanged. */
    List<String> marked(List<String> args) {
        return NodeArgv.inRun(args, runId);
    }

    @Override
    public String name() {
        return inner.name();
    }

    @Override
    public StepResult prepare(ClusterSpec.Node node, Duration timeout) throws InterruptedException {
        return inner.prepare(node, timeout);
    }

    @Override
    public StepResult reach(ClusterSpec.Node node, Duration timeout) throws InterruptedException {
        return inner.reach(node, timeout);
    }

    @Override
    public StepResult run(ClusterSpec.Node node, List<String> railyardArgs, Duration timeout) throws InterruptedException {
        return inner.run(node, marked(railyardArgs), timeout);
    }

    @Override
    public RemoteProcess start(ClusterSpec.Node node, List<String> railyardArgs, Duration timeout) throws InterruptedException {
        return inner.start(node, marked(railyardArgs), timeout);
    }

    @Override
    public void close() {
        inner.close();
    }
}
