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
 * Runs Railyard on nodes through the OpenSSH client: user, port, key and ssh_config from the spec's {@code ssh}
 * sections, everything else (host key checking first) from the user's ssh_config. Every remote command is an argv
 * list quoted word by word for the remote shell ({@link PosixShellWords}) and runs under {@link ProcessGroupWrapper},
 * so a step killed at its timeout takes its whole remote process tree with it.
 */
public final class SshLauncher implements Launcher {

    private final ClusterSpec spec;
    private final RemoteRailyard railyard;
    private final String ssh;
    /** The argv that starts Railyard on each prepared node. */
    private final Map<String, List<String>> railyardOnNode = new ConcurrentHashMap<>();
    private final RunningSteps running = new RunningSteps();
    /** Each bundle's machine, read once from its tarball. */
    private final Map<String, Optional<String>> bundleMachines = new ConcurrentHashMap<>();

    public SshLauncher(ClusterSpec spec, RemoteRailyard railyard) {
        this(spec, railyard, "ssh");
    }

    /** {@code ssh} is the client program (tests and odd installs name it). */
    public SshLauncher(ClusterSpec spec, RemoteRailyard railyard, String ssh) {
        this.spec = spec;
        this.railyard = railyard;
        this.ssh = ssh;
    }

    @Override
    public String name() {
        return "ssh";
    }

    @Override
    public StepResult prepare(ClusterSpec.Node node, Duration timeout) throws InterruptedException {
        return switch (railyard) {
            case RemoteRailyard.AtPath p -> {
                railyardOnNode.put(node.name(), List.of(p.path()));
                yield execute(node, List.of(), List.of(p.path(), "--version"), timeout);
            }
            case RemoteRailyard.FromBundle b -> prepareBundle(node, b.bundles(), timeout);
        };
    }

    /** One ssh round trip running {@code true}: no JVM, no bundle, only the transport. */
    @Override
    public StepResult reach(ClusterSpec.Node node, Duration timeout) throws InterruptedException {
        return execute(node, List.of(), List.of("true"), timeout);
    }

    private StepResult prepareBundle(ClusterSpec.Node node, List<Bundle> bundles, Duration timeout)
            throws InterruptedException {
        long start = System.nanoTime();
        StepResult probe = execute(node, List.of(), NodeCache.probe(bundles.getFirst().hash()), timeout);
        if (probe.status() != StepStatus.EXITED) return probe;
        var answer = NodeCache.parse(probe.stdout());
        if (probe.exitCode() != 0 || answer.isEmpty()) {
            return RunningSteps.failed(node, probe, "could not find the cache directory on " + node.name() + ": "
                    + (probe.stdout() + probe.stderr()).strip());
        }
        BundleChoice choice = BundleChoice.of(node.name(), answer.get().arch(), built(bundles), node.java());
        if (choice instanceof BundleChoice.Refuse refuse) return RunningSteps.failed(node, probe, refuse.reason());
        BundleChoice.Ship ship = (BundleChoice.Ship) choice;
        Bundle bundle = ship.bundle();
        if (!bundle.hash().equals(bundles.getFirst().hash())) {
            // the node's machine has a bundle of its own: ask again whether the node holds that one
            probe = execute(node, List.of(), NodeCache.probe(bundle.hash()), timeout);
            if (probe.status() != StepStatus.EXITED) return probe;
            answer = NodeCache.parse(probe.stdout());
            if (probe.exitCode() != 0 || answer.isEmpty()) {
                return RunningSteps.failed(node, probe, "could not find the cache directory on " + node.name()
                        + ": " + (probe.stdout() + probe.stderr()).strip());
            }
        }
        String dir = answer.get().dir();
        String done;
        if (answer.get().present()) {
            done = "bundle " + bundle.hash() + " already at " + dir;
        } else {
            Duration left = timeout.minus(Duration.ofNanos(System.nanoTime() - start));
            StepResult copy = copy(node, bundle, dir, left);
            if (!copy.completed() || copy.exitCode() != 0) {
                return copy.status() == StepStatus.EXITED
                        ? RunningSteps.failed(node, copy, "copying the bundle to " + node.name() + ":" + dir
                                + " failed: " + copy.stderr().strip())
                        : copy;
            }
            done = "copied bundle " + bundle.hash() + " to " + dir;
        }
        List<String> program = BundleChoice.program(answer.get().railyard(), ship.javaHome());
        if (ship.javaHome().isPresent()) {
            StepResult version = execute(node, List.of(), withProgram(program, List.of("--version")),
                    timeout.minus(Duration.ofNanos(System.nanoTime() - start)));
            // exit 127 (no such java) comes back as LAUNCH_FAILED: it too is the named JDK's failure
            if (version.status() != StepStatus.EXITED && version.status() != StepStatus.LAUNCH_FAILED) return version;
            if (version.status() == StepStatus.LAUNCH_FAILED || version.exitCode() != 0) {
                return RunningSteps.failed(node, version, BundleChoice.javaFailed(node, ship.javaHome().get(),
                        version));
            }
            done += " (run with " + ship.javaHome().get() + ")";
        }
        railyardOnNode.put(node.name(), program);
        return RunningSteps.done(node, start, done);
    }

    private List<BundleChoice.Built> built(List<Bundle> bundles) {
        return bundles.stream().map(b -> new BundleChoice.Built(b, machineOf(b))).toList();
    }

    private Optional<String> machineOf(Bundle bundle) {
        return bundleMachines.computeIfAbsent(bundle.hash(), h -> BundleArchitecture.of(bundle.tarball()));
    }

    /** ssh with the tarball as stdin; not under the wrapper, whose stdin is its kill signal. */
    private StepResult copy(ClusterSpec.Node node, Bundle bundle, String dir, Duration timeout)
            throws InterruptedException {
        SshCommand command = command(node);
        String remote = PosixShellWords.join(NodeCache.unpack(dir, "-"));
        WrappedStep step;
        try {
            step = WrappedStep.feeding(node.name(), command, command.argv(remote, timeout), bundle.tarball());
        } catch (IOException e) {
            return launchFailed(node, List.of(), e);
        }
        return running.await(step, timeout);
    }

    @Override
    public StepResult run(ClusterSpec.Node node, List<String> railyardArgs, Duration timeout)
            throws InterruptedException {
        List<String> program = railyardOnNode.get(node.name());
        if (program == null) {
            StepResult prepared = prepare(node, timeout);
            if (!RunningSteps.prepared(prepared)) return prepared;
            program = railyardOnNode.get(node.name());
        }
        return execute(node, railyardArgs, withProgram(program, railyardArgs), timeout);
    }

    @Override
    public RemoteProcess start(ClusterSpec.Node node, List<String> railyardArgs, Duration timeout)
            throws InterruptedException {
        List<String> program = railyardOnNode.get(node.name());
        if (program == null) {
            StepResult prepared = prepare(node, timeout);
            if (!RunningSteps.prepared(prepared)) return RunningSteps.ended(prepared);
            program = railyardOnNode.get(node.name());
        }
        try {
            return running.track(start(node, railyardArgs, withProgram(program, railyardArgs), timeout));
        } catch (IOException e) {
            return RunningSteps.ended(launchFailed(node, railyardArgs, e));
        }
    }

    /** Runs any argv on the node under the wrapper and waits; the report shows {@code shownArgs}. */
    StepResult execute(ClusterSpec.Node node, List<String> shownArgs, List<String> remoteArgv, Duration timeout)
            throws InterruptedException {
        WrappedStep step;
        try {
            step = start(node, shownArgs, remoteArgv, timeout);
        } catch (IOException e) {
            return launchFailed(node, shownArgs, e);
        }
        return running.await(step, timeout);
    }

    WrappedStep start(ClusterSpec.Node node, List<String> shownArgs, List<String> remoteArgv, Duration timeout)
            throws IOException {
        SshCommand command = command(node);
        return WrappedStep.start(node.name(), shownArgs, command,
                command.argv(ProcessGroupWrapper.remoteCommand(remoteArgv), timeout), Map.of(), true);
    }

    SshCommand command(ClusterSpec.Node node) {
        return new SshCommand(ssh, node.address(), spec.sshFor(node));
    }

    private static List<String> withProgram(List<String> program, List<String> args) {
        List<String> argv = new ArrayList<>(program);
        argv.addAll(args);
        return argv;
    }

    private StepResult launchFailed(ClusterSpec.Node node, List<String> args, IOException e) {
        return RunningSteps.notStarted(node, args, e,
                "could not start " + ssh + ": " + e.getMessage() + " (install openssh-client)");
    }

    /** Stops every step still running, each with its remote process group. */
    @Override
    public void close() {
        running.closeAll();
    }
}
