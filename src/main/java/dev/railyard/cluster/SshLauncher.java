package dev.railyard.cluster;

import dev.railyard.model.ClusterSpec;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Runs Railyard on nodes through the OpenSSH client: user, port, key and ssh_config from the spec's {@code ssh}
 * sections, everything else (host key checking first) from the user's ssh_config. Every remote command is an argv
 * list quoted word by word for the remote shell ({@link PosixShellWords}) and runs under {@link ProcessGroupWrapper},
 * so a step killed at its timeout takes its whole remote process tree with it.
 *
 * <p>Steps go over one master connection per node ({@link SshMasters}), opened when the node is prepared and ended
 * at {@link #close}. A node is lost when its transport fails: the master gone (its link dead, its sshd killed) and a
 * new connection refused or timed out. {@link #reach} always makes a new connection, past the master. While a
 * node's master lives, a stopped sshd listener does not stop its steps, and what they measure counts; only a step
 * that failed makes validate ask the node again, and then the refused new connection makes it lost.
 */
public final class SshLauncher implements Launcher {

    private final ClusterSpec spec;
    private final RemoteRailyard railyard;
    private final String ssh;
    private final RemoteSteps steps;
    private final Optional<SshMasters> masters;

    public SshLauncher(ClusterSpec spec, RemoteRailyard railyard) {
        this(spec, railyard, "ssh");
    }

    /** {@code ssh} is the client program (tests and odd installs name it). */
    public SshLauncher(ClusterSpec spec, RemoteRailyard railyard, String ssh) {
        this(spec, railyard, ssh, true);
    }

    /** {@code multiplex} false: every step on a connection of its own (the benchmark's anchor). */
    public SshLauncher(ClusterSpec spec, RemoteRailyard railyard, String ssh, boolean multiplex) {
        this.spec = spec;
        this.railyard = railyard;
        this.ssh = ssh;
        this.masters = multiplex ? SshMasters.create() : Optional.empty();
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
        if (masters.isPresent()) masters.get().open(node.name(), command(node), timeout);
        return switch (railyard) {
            case RemoteRailyard.AtPath p -> {
                steps.preparedAt(node, List.of(p.path()));
                yield execute(node, List.of(), List.of(p.path(), "--version"), timeout);
            }
            case RemoteRailyard.FromBundle b -> steps.prepareBundle(node, b.bundles(), timeout, this::copy, "");
        };
    }

    /**
     * One ssh round trip running {@code true} on a new connection: no JVM, no bundle, only the transport. Past the
     * master, which would answer for a node whose sshd no longer takes connections.
     */
    @Override
    public StepResult reach(ClusterSpec.Node node, Duration timeout) throws InterruptedException {
        WrappedStep step;
        try {
            step = start(node, List.of(), List.of("true"), timeout, Optional.of("none"));
        } catch (IOException e) {
            return steps.launchFailed(node, List.of(), e);
        }
        return steps.await(step, timeout);
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
        return start(node, shownArgs, remoteArgv, timeout, Optional.empty());
    }

    /** With {@code controlPath} "none": on a new connection; empty: through the node's master while it has room. */
    private WrappedStep start(ClusterSpec.Node node, List<String> shownArgs, List<String> remoteArgv, Duration timeout,
                              Optional<String> controlPath) throws IOException {
        SshCommand command = command(node);
        String remote = ProcessGroupWrapper.remoteCommand(remoteArgv);
        Optional<Runnable> session = controlPath.isEmpty() && masters.isPresent()
                ? masters.get().session(node.name()) : Optional.empty();
        List<String> argv = session.isPresent() ? command.argv(remote, timeout, masters.get().controlPath())
                : controlPath.isPresent() ? command.argv(remote, timeout, controlPath.get())
                : command.argv(remote, timeout);
        WrappedStep.Transport words = session.isEmpty() ? command : new WrappedStep.Transport() {
            @Override
            public String where() {
                return command.where();
            }

            @Override
            public Optional<String> unreachable(int exitCode, String stderr) {
                if (exitCode != 255 || SshFailure.endsInSshWords(stderr)) return command.unreachable(exitCode, stderr);
                // a step over a master that ended has no words of its own (its stderr is the remote program's); the
                // master's are in its log, if it had any
                String master = masters.get().lastWords(node.name());
                return command.unreachable(exitCode, master.isBlank() ? "ssh: the master connection to "
                        + command.address() + " ended (the host, its link or its sshd went away)" : master);
            }
        };
        WrappedStep step;
        try {
            step = WrappedStep.start(node.name(), shownArgs, words, argv, Map.of(), true);
        } catch (IOException e) {
            session.ifPresent(Runnable::run);
            throw e;
        }
        session.ifPresent(release -> step.transportProcess().onExit().thenRun(release));
        return step;
    }

    SshCommand command(ClusterSpec.Node node) {
        return new SshCommand(ssh, node.address(), spec.sshFor(node));
    }

    /** Stops every step still running, each with its remote process group, then ends the masters. */
    @Override
    public void close() {
        steps.closeAll();
        masters.ifPresent(SshMasters::close);
    }
}
