package dev.railyard.cluster;

import dev.railyard.model.ClusterSpec;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

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
    private final RemoteSteps steps;

    public SshLauncher(ClusterSpec spec, RemoteRailyard railyard) {
        this(spec, railyard, "ssh");
    }

    /** {@code ssh} is the client program (tests and odd installs name it). */
    public SshLauncher(ClusterSpec spec, RemoteRailyard railyard, String ssh) {
        this.spec = spec;
        this.railyard = railyard;
        this.ssh = ssh;
        this.steps = new RemoteSteps(new RemoteSteps.Transport() {
            @Override
            public WrappedStep start(ClusterSpec.Node node, List<String> shownArgs, List<String> argv,
                                     Duration timeout) throws IOException {
                return SshLauncher.this.start(node, shownArgs, argv, timeout);
            }

            @Override
            public String cannotStart(IOException e) {
                return "could not start " + ssh + ": " + e.getMessage() + " (install openssh-client)";
            }
        });
    }

    @Override
    public String name() {
        return "ssh";
    }

    @Override
    public StepResult prepare(ClusterSpec.Node node, Duration timeout) throws InterruptedException {
        return switch (railyard) {
            case RemoteRailyard.AtPath p -> {
                steps.preparedAt(node, List.of(p.path()));
                yield execute(node, List.of(), List.of(p.path(), "--version"), timeout);
            }
            case RemoteRailyard.FromBundle b -> steps.prepareBundle(node, b.bundles(), timeout, this::copy, "");
        };
    }

    /** One ssh round trip running {@code true}: no JVM, no bundle, only the transport. */
    @Override
    public StepResult reach(ClusterSpec.Node node, Duration timeout) throws InterruptedException {
        return execute(node, List.of(), List.of("true"), timeout);
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
            return steps.launchFailed(node, List.of(), e);
        }
        StepResult copy = steps.await(step, timeout);
        return copy.status() == StepStatus.EXITED && copy.exitCode() != 0
                ? RunningSteps.failed(node, copy, "copying the bundle to " + node.name() + ":" + dir + " failed: "
                        + copy.stderr().strip())
                : copy;
    }

    @Override
    public StepResult run(ClusterSpec.Node node, List<String> railyardArgs, Duration timeout)
            throws InterruptedException {
        return steps.run(node, railyardArgs, timeout, this::prepare);
    }

    @Override
    public RemoteProcess start(ClusterSpec.Node node, List<String> railyardArgs, Duration timeout)
            throws InterruptedException {
        return steps.start(node, railyardArgs, timeout, this::prepare);
    }

    /** Runs any argv on the node under the wrapper and waits; the report shows {@code shownArgs}. */
    StepResult execute(ClusterSpec.Node node, List<String> shownArgs, List<String> remoteArgv, Duration timeout)
            throws InterruptedException {
        return steps.execute(node, shownArgs, remoteArgv, timeout);
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

    /** Stops every step still running, each with its remote process group. */
    @Override
    public void close() {
        steps.closeAll();
    }
}
