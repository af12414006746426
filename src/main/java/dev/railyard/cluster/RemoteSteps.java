package dev.railyard.cluster;

import dev.railyard.model.ClusterSpec;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the SSH and Slurm launchers share: the argv that starts Railyard on each prepared node, the steps in flight,
 * running and starting a step (preparing the node first when it was not), and preparing a node from bundles. A
 * launcher brings only its transport (ssh through the process-group wrapper, or an srun step) and how a bundle
 * reaches a node's cache.
 */
final class RemoteSteps {

    /** How one argv starts on a node; the report shows {@code shownArgs}. */
    interface Transport {
        WrappedStep start(ClusterSpec.Node node, List<String> shownArgs, List<String> argv, Duration timeout)
                throws IOException;

        /** The one-line reason when the local transport program could not be started. */
        String cannotStart(IOException e);
    }

    /** Prepares a node (as {@link Launcher#prepare}); it calls {@link #preparedAt} when Railyard is there. */
    interface Preparation {
        StepResult prepare(ClusterSpec.Node node, Duration timeout) throws InterruptedException;
    }

    /**
     * Brings a bundle into the node's cache directory: a result that {@link RunningSteps#prepared} when it is there,
     * else the step as it ended (one that exited with an error already says what failed).
     */
    interface BundleCopy {
        StepResult copy(ClusterSpec.Node node, Bundle bundle, String dir, Duration timeLeft) throws InterruptedException;
    }

    private final Transport transport;
    private final Map<String, List<String>> railyardOnNode = new ConcurrentHashMap<>();
    private final RunningSteps running = new RunningSteps();
    /** Each bundle's machine, read once from its tarball. */
    private final Map<String, Optional<String>> bundleMachines = new ConcurrentHashMap<>();

    RemoteSteps(Transport transport) {
        this.transport = transport;
    }

    /** Railyard runs on {@code node} as {@code program} followed by its arguments. */
    void preparedAt(ClusterSpec.Node node, List<String> program) {
        railyardOnNode.put(node.name(), List.copyOf(program));
    }

    StepResult run(ClusterSpec.Node node, List<String> railyardArgs, Duration timeout, Preparation preparation)
            throws InterruptedException {
        List<String> program = railyardOnNode.get(node.name());
        if (program == null) {
            StepResult prepared = preparation.prepare(node, timeout);
            if (!RunningSteps.prepared(prepared)) return prepared;
            program = railyardOnNode.get(node.name());
        }
        return execute(node, railyardArgs, withProgram(program, railyardArgs), timeout);
    }

    RemoteProcess start(ClusterSpec.Node node, List<String> railyardArgs, Duration timeout, Preparation preparation)
            throws InterruptedException {
        List<String> program = railyardOnNode.get(node.name());
        if (program == null) {
            StepResult prepared = preparation.prepare(node, timeout);
            if (!RunningSteps.prepared(prepared)) return RunningSteps.ended(prepared);
            program = railyardOnNode.get(node.name());
        }
        try {
            return running.track(transport.start(node, railyardArgs, withProgram(program, railyardArgs), timeout));
        } catch (IOException e) {
            return RunningSteps.ended(launchFailed(node, railyardArgs, e));
        }
    }

    /** Runs any argv on the node and waits; the report shows {@code shownArgs}. */
    StepResult execute(ClusterSpec.Node node, List<String> shownArgs, List<String> argv, Duration timeout)
            throws InterruptedException {
        WrappedStep step;
        try {
            step = transport.start(node, shownArgs, argv, timeout);
        } catch (IOException e) {
            return launchFailed(node, shownArgs, e);
        }
        return running.await(step, timeout);
    }

    /** Waits for a step the launcher started itself (one fed from stdin), stopped at close like the others. */
    StepResult await(WrappedStep step, Duration timeout) throws InterruptedException {
        return running.await(step, timeout);
    }

    StepResult launchFailed(ClusterSpec.Node node, List<String> args, IOException e) {
        return RunningSteps.notStarted(node, args, e, transport.cannotStart(e));
    }

    /**
     * Finds or brings the bundle for the node's machine into its cache: asks the node where its cache is and
     * whether it holds the bundle, picks the bundle (and the JDK) for the node's machine, copies it when missing,
     * and checks that a named JDK runs it. {@code copied} is what the copy is called in the step's detail.
     */
    StepResult prepareBundle(ClusterSpec.Node node, List<Bundle> bundles, Duration timeout, BundleCopy copy,
                             String copied) throws InterruptedException {
        long start = System.nanoTime();
        StepResult probe = execute(node, List.of(), NodeCache.probe(bundles.getFirst().hash()), timeout);
        if (probe.status() != StepStatus.EXITED) return probe;
        var answer = NodeCache.parse(probe.stdout());
        if (probe.exitCode() != 0 || answer.isEmpty()) return noCache(node, probe);
        BundleChoice choice = BundleChoice.of(node.name(), answer.get().arch(), built(bundles), node.java());
        if (choice instanceof BundleChoice.Refuse refuse) return RunningSteps.failed(node, probe, refuse.reason());
        BundleChoice.Ship ship = (BundleChoice.Ship) choice;
        Bundle bundle = ship.bundle();
        if (!bundle.hash().equals(bundles.getFirst().hash())) {
            // the node's machine has a bundle of its own: ask again whether the node holds that one
            probe = execute(node, List.of(), NodeCache.probe(bundle.hash()), timeout);
            if (probe.status() != StepStatus.EXITED) return probe;
            answer = NodeCache.parse(probe.stdout());
            if (probe.exitCode() != 0 || answer.isEmpty()) return noCache(node, probe);
        }
        String dir = answer.get().dir();
        String done;
        if (answer.get().present()) {
            done = "bundle " + bundle.hash() + " already at " + dir;
        } else {
            StepResult result = copy.copy(node, bundle, dir, left(timeout, start));
            if (!RunningSteps.prepared(result)) return result;
            done = "copied bundle " + bundle.hash() + " to " + dir + copied;
        }
        List<String> program = BundleChoice.program(answer.get().railyard(), ship.javaHome());
        if (ship.javaHome().isPresent()) {
            StepResult version = execute(node, List.of(), withProgram(program, List.of("--version")),
                    left(timeout, start));
            // exit 127 (no such java) comes back as LAUNCH_FAILED: it too is the named JDK's failure
            if (version.status() != StepStatus.EXITED && version.status() != StepStatus.LAUNCH_FAILED) return version;
            if (version.status() == StepStatus.LAUNCH_FAILED || version.exitCode() != 0) {
                return RunningSteps.failed(node, version, BundleChoice.javaFailed(node, ship.javaHome().get(),
                        version));
            }
            done += " (run with " + ship.javaHome().get() + ")";
        }
        preparedAt(node, program);
        return RunningSteps.done(node, start, done);
    }

    private static StepResult noCache(ClusterSpec.Node node, StepResult probe) {
        return RunningSteps.failed(node, probe, "could not find the cache directory on " + node.name() + ": "
                + (probe.stdout() + probe.stderr()).strip());
    }

    private static Duration left(Duration timeout, long startNanos) {
        return timeout.minus(Duration.ofNanos(System.nanoTime() - startNanos));
    }

    private List<BundleChoice.Built> built(List<Bundle> bundles) {
        return bundles.stream().map(b -> new BundleChoice.Built(b,
                bundleMachines.computeIfAbsent(b.hash(), h -> BundleArchitecture.of(b.tarball())))).toList();
    }

    static List<String> withProgram(List<String> program, List<String> args) {
        List<String> argv = new ArrayList<>(program);
        argv.addAll(args);
        return argv;
    }

    /** Stops every step still running. */
    void closeAll() {
        running.closeAll();
    }
}
