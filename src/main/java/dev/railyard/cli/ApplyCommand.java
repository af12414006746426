package dev.railyard.cli;

import dev.railyard.apply.Backups;
import dev.railyard.apply.Change;
import dev.railyard.apply.FollowUps;
import dev.railyard.apply.Installer;
import dev.railyard.apply.TargetRoot;
import dev.railyard.collect.InfinibandCollector;
import dev.railyard.model.ClusterSpec;
import dev.railyard.model.RailyardException;
import dev.railyard.model.RdmaDevice;
import dev.railyard.platform.Clock;
import dev.railyard.platform.CommandRunner;
import dev.railyard.platform.HostRoot;
import dev.railyard.render.NodeRenderer;
import dev.railyard.render.RenderInput;
import dev.railyard.render.RenderedFile;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;

@Command(name = "apply",
        mixinStandardHelpOptions = true,
        description = {
                "Put the rendered configuration files in place on this node, with a diff first and a backup of each file replaced.",
                "",
                "Renders the node's files from the spec (the RDMA inventory under --root gives the RoCE GID index) and "
                        + "compares them with the files under --root. --dry-run (the default) prints the unified diff. "
                        + "--apply writes every changed file atomically after a timestamped backup under "
                        + "var/backups/railyard/; a full disk or an unwritable file leaves everything as it was, and a "
                        + "file without its owner's write bit is never replaced. --undo restores the newest backup.",
                "",
                "Afterwards it runs systemctl daemon-reload and sysctl --system when their files changed (on / only). "
                        + "Networking (netplan apply, nmcli) is restarted only with --restart-network, since it can cut "
                        + "the session apply runs in. GPU settings are never touched."},
        footer = {"", "Exit codes: 0 done (or nothing to do), 2 usage, spec or read-only file, 3 no space left.",
                "", "Examples:",
                "  railyard apply --spec cluster.yaml --node gpuserver1",
                "  railyard apply --spec cluster.yaml --node gpuserver1 --apply --restart-network",
                "  railyard apply --undo"})
public final class ApplyCommand implements Callable<Integer> {

    @Option(names = "--spec", paramLabel = "FILE", description = "The cluster spec (not needed with --undo).")
    Path specFile;

    @Option(names = "--node", paramLabel = "NAME", description = "This node's name in the spec (default: the hostname under --root).")
    String node;

    @Option(names = "--root", paramLabel = "DIR", defaultValue = "/", description = "Apply under DIR instead of / (default: ${DEFAULT-VALUE}).")
    Path root;

    static final class Mode {
        @Option(names = "--dry-run", description = "Print the diff only (the default).")
        boolean dryRun;
        @Option(names = "--apply", description = "Write the changed files, with backups.")
        boolean apply;
        @Option(names = "--undo", description = "Restore the files of the newest apply.")
        boolean undo;
    }

    @ArgGroup(exclusive = true)
    Mode mode = new Mode();

    @Option(names = "--restart-network", description = "After --apply, also run netplan apply / nmcli when network files changed.")
    boolean restartNetwork;

    @Spec
    CommandSpec spec;

    private final CommandRunner runner;
    private final Clock clock;

    public ApplyCommand() {
        this(CommandRunner.system(), Clock.system());
    }

    ApplyCommand(CommandRunner runner, Clock clock) {
        this.runner = runner;
        this.clock = clock;
    }

    @Override
    public Integer call() {
        if (!Files.isDirectory(root)) throw new RailyardException.Usage("--root " + root + " is not a directory", "");
        TargetRoot target = new TargetRoot(root);
        PrintWriter out = spec.commandLine().getOut();
        if (mode.undo) {
            Backups.Backup b = new Backups(target).undoLatest();
            long restored = b.entries().stream().filter(Backups.Entry::replaced).count();
            out.println("undid " + b.name() + ": restored " + restored + " file(s), removed "
                    + (b.entries().size() - restored) + " created file(s)");
            out.flush();
            return ExitCodes.OK;
        }
        if (specFile == null) throw new RailyardException.Usage("--spec is needed to render the files", "add --spec cluster.yaml");
        ClusterSpec cluster = SpecFiles.load(specFile);
        HostRoot host = isLive() ? HostRoot.live() : HostRoot.at(root);
        String name = SpecFiles.nodeName(cluster, node != null ? node : host.read("proc/sys/kernel/hostname").optional()
                .orElseThrow(() -> new RailyardException.Usage("no hostname under " + root, "pass --node NAME")));
        Optional<List<RdmaDevice>> rdma = host.isDirectory("sys/class/infiniband")
                ? Optional.of(new InfinibandCollector().collect(host)) : Optional.empty();
        List<RenderedFile> files = NodeRenderer.all().render(cluster, name, rdma, RenderInput.DEFAULT_AGENT_PORT);
        List<Change> changes = target.changes(files);
        for (Change c : changes) {
            if (c.kind() == Change.Kind.UNCHANGED) continue;
            out.print(c.diff());
            if (c.currentMode().isPresent() && c.currentMode().get() != c.file().mode()) {
                out.println("mode /" + c.file().path() + ": " + String.format("%04o", c.currentMode().get()) + " -> " + c.file().modeOctal());
            }
        }
        long changed = changes.stream().filter(c -> c.kind() != Change.Kind.UNCHANGED).count();
        if (!mode.apply) {
            out.println(changed + " of " + changes.size() + " file(s) would change under " + root
                    + (changed > 0 ? "; run with --apply to write them" : ""));
            out.flush();
            return ExitCodes.OK;
        }
        Optional<Backups.Backup> backup = new Installer(target, clock).apply(changes);
        out.println(changed + " of " + changes.size() + " file(s) changed under " + root
                + backup.map(b -> "; backup " + b.dir() + " (undo: railyard apply --undo" + (isLive() ? "" : " --root " + root) + ")").orElse(""));
        followUps(changes, out);
        out.flush();
        return ExitCodes.OK;
    }

    private void followUps(List<Change> changes, PrintWriter out) {
        for (FollowUps.Step s : FollowUps.of(changes)) {
            String cmd = String.join(" ", s.argv());
            if (!isLive()) {
                out.println("next on the node (" + s.why() + "): " + cmd);
            } else if (s.network() && !restartNetwork) {
                out.println("not restarting networking (" + s.why() + "); to do it now: " + cmd + "  (or add --restart-network)");
            } else {
                CommandRunner.Result r = runner.run(s.argv(), Duration.ofSeconds(120));
                out.println((r.ok() ? "ran: " : "FAILED (" + (r.notFound() ? r.startError() : "exit " + r.exitCode()) + "): ") + cmd);
            }
        }
    }

    private boolean isLive() {
        return root.toAbsolutePath().normalize().equals(Path.of("/"));
    }
}
