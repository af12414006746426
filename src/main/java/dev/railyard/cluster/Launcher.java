package dev.railyard.cluster;

import dev.railyard.model.ClusterSpec;

import java.time.Duration;
import java.util.List;

/**
 * Starts Railyard on a node through an engine people already run (local process, OpenSSH, Slurm's srun). Arguments
 * are an argv list for {@code railyard}; implementations never glue them into a shell string unquoted. Failures of
 * the node or the transport are reported in the {@link StepResult}, not thrown.
 */
public interface Launcher extends AutoCloseable {

    /** "local", "ssh" or "slurm", for the report. */
    String name();

    /**
     * Makes sure the node can run this Railyard version (copies the bundle where it is missing); called once per
     * node before any step. The result's status says whether the node is usable.
     */
    StepResult prepare(ClusterSpec.Node node, Duration timeout) throws InterruptedException;

    /**
     * Whether the transport still reaches a node that was prepared: after a failed pair test, this says whether the
     * node is lost (status other than EXITED, with the transport's words) or the test itself failed. The default
     * prepares the node again, which is a transport round trip where Railyard is in place already.
     */
    default StepResult reach(ClusterSpec.Node node, Duration timeout) throws InterruptedException {
        return prepare(node, timeout);
    }

    /** Runs {@code railyard ARGS} on the node and waits; at the timeout the remote process tree is killed. */
    StepResult run(ClusterSpec.Node node, List<String> railyardArgs, Duration timeout) throws InterruptedException;

    /** Starts {@code railyard ARGS} on the node and returns once it is started (servers of pair tests). */
    RemoteProcess start(ClusterSpec.Node node, List<String> railyardArgs, Duration timeout)
            throws InterruptedException;

    /** Stops every step still running. */
    @Override
    void close();
}
