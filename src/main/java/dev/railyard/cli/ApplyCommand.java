package dev.railyard.cli;

import dev.railyard.apply.ApplyLock;
import dev.railyard.apply.ApplyReport;
import dev.railyard.apply.Backups;
import dev.railyard.apply.Change;
import dev.railyard.apply.FollowUps;
import dev.railyard.apply.HostNameCheck;
import dev.railyard.apply.Installer;
import dev.railyard.apply.TargetRoot;
import dev.railyard.collect.InfinibandCollector;
import dev.railyard.model.ClusterSpec;
import dev.railyard.model.RailyardException;
import dev.railyard.model.RdmaDevice;
import dev.railyard.platform.Clock;
import dev.railyard.platform.CommandRunner;
import dev.railyard.platform.HostRoot;
import dev.railyard.render.InstalledSystem;
import dev.railyard.render.NodeRenderer;
import dev.railyard.render.RenderInput;
import dev.railyard.render.RenderedFile;
import dev.railyard.report.Json;
import dev.railyard.spec.SpecHandoff;
import dev.railyard.spec.SpecReader;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

@Command(name = "apply",
        mixinStandardHelpOptions = true,
        description = {
                "Put the rendered configuration files in place, with a diff first and a backup of each file replaced: "
                        + "on this node, or with --nodes/--launcher on every node of the spec.",
                "",
                "Renders the node's files from the spec (the RDMA inventory under --root gives the RoCE GID index) and "
                        + "compares them with the files under --root. --dry-run (the default) prints the unified diff. "
                        + "--apply writes every changed file atomically after a timestamped backup under "
                        + "var/backups/railyard/; a full disk or an unwritable file leaves everything as it was, and a "
                        + "file without its owner's write bit is never replaced. --undo restores the newest backup, "
                        + "refusing (without --force) to overwrite a file changed by hand since. Ctrl-C stops between "
                        + "two files, never inside one, and lists the files already written.",
                "",
                "Afterwards, in this order and on / only, it runs systemctl daemon-reload and sysctl --system when their "
                        + "files changed, modprobe for modules-load.d's modules, systemctl enable --now for new units "
                        + "(railyard-agent, opensm on the subnet manager), and a restart of slurmd and opensm when their "
                        + "configuration changed; --no-start leaves those to the admin, and --undo disables and stops what "
                        + "apply enabled. Networking (netplan apply, nmcli) is restarted only with --restart-network, since "
                        + "it can cut the session apply runs in. GPU settings are never touched. The dry run lists them.",
                "",
                "With --nodes or --launcher, each node runs 'railyard apply --node ITSELF' through validate's launcher "
                        + "(ssh by default; Railyard gets there as a bundle, or --railyard-path) and this prints each "
                        + "node's diff, writes or undo under its name and a summary naming every node that was not "
                        + "done. '{node}' in --root becomes each node's name (a scratch root per node)."},
        footer = {"", "Exit codes: 0 done (or nothing to do), 1 interrupted (stopped between two files; the ones written",
                "are listed), 2 usage, spec, read-only file, nothing to undo or an undo refused over a hand edit,",
                "a host named otherwise than --node (without --force), an interface another network file defines",
                "(without --take-over),",
                "3 no space left, another apply running on the same root, or a follow-up command",
                "(sysctl --system, systemctl daemon-reload) failed;",
                "across nodes the highest of the nodes' codes, a node unreachable or timed out counting as 3.",
                "", "Examples:",
                "  railyard apply --spec cluster.yaml --node gpuserver1",
                "  railyard apply --spec cluster.yaml --node gpuserver1 --apply --restart-network",
                "  railyard apply --spec cluster.yaml --node gpuserver1 --apply --take-over ib0",
                "  railyard apply --spec cluster.yaml --node gpuserver1 --apply --no-start",
                "  railyard apply --undo",
                "  railyard apply --spec cluster.yaml --nodes all",
                "  railyard apply --spec cluster.yaml --nodes all --launcher slurm --apply"})
public final class ApplyCommand implements Callable<Integer> {

    @Option(names = "--spec", paramLabel = "FILE", description = "The cluster spec (not needed with --undo on one node).")
    Path specFile;

    @Option(names = "--spec-base64", paramLabel = "DATA", hidden = true,
            description = "The spec's text gzipped and base64url-encoded: how apply across nodes hands each node its spec.")
    String specBase64;

    @Option(names = "--spec-name", paramLabel = "NAME", hidden = true,
            description = "With --spec-base64: the spec file's name, for the headers of the rendered files.")
    String specName;

    @Option(names = "--node", paramLabel = "NAME", description = "This node's name in the spec (default: the hostname under --root).")
    String node;

    @Option(names = "--root", paramLabel = "DIR", description = "Apply under DIR instead of / (default: /).")
    String root;

    static final class Mode {
        @Option(names = "--dry-run", description = "Print the diff only (the default).")
        boolean dryRun;
        @Option(names = "--apply", description = "Write the changed files, with backups.")
        boolean apply;
        @Option(names = "--undo", description = "Restore the files of the newest apply.")
        boolean undo;
    }

    @Option(names = "--force", description = "With --apply: write even when this host's name is not --node's. "
            + "With --undo: restore even files changed by hand since the apply "
            + "(each hand edit is kept in the backup's hand-edited/ directory).")
    boolean force;

    @ArgGroup(exclusive = true)
    Mode mode = new Mode();

    @Option(names = "--restart-network", description = "After --apply, also run netplan apply / nmcli when network files changed.")
    boolean restartNetwork;

    @Option(names = "--take-over", paramLabel = "IFACE", split = ",",
            description = "Take these interfaces over from another netplan file or NetworkManager profile that defines them too "
                    + "(that file is edited and backed up; without it --apply refuses).")
    List<String> takeOver;

    @Option(names = "--no-start", description = "After --apply, leave enabling and starting new units, restarting slurmd "
            + "and opensm and loading modules to the admin (they are printed).")
    boolean noStart;

    @Option(names = "--format", defaultValue = "text", paramLabel = "text|json",
            description = "Output format (default: ${DEFAULT-VALUE}).")
    FormatOption.TextOrJson format;

    @Option(names = "--nodes", paramLabel = "a,b|all", split = ",",
            description = "Apply on these nodes of the spec (all: every node), each through the launcher.")
    List<String> nodes;

    @Option(names = "--launcher", paramLabel = "local|ssh|slurm",
            description = "How Railyard is started on the nodes with --nodes (default: ssh; alone it means --nodes all).")
    ValidateCommand.LauncherKind launcherKind;

    @Option(names = "--max-parallel", defaultValue = "32", paramLabel = "N",
            description = "Nodes applied at once with --nodes (default: ${DEFAULT-VALUE}).")
    int maxParallel;

    @Option(names = "--step-timeout", defaultValue = "5m", paramLabel = "DUR", converter = PositiveDurationConverter.class,
            description = "With --nodes: each node's copy of Railyard and its apply are stopped after this long (default: ${DEFAULT-VALUE}).")
    Duration stepTimeout;

    @Mixin
    RemoteLauncherOptions remote = new RemoteLauncherOptions();

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
    public Integer call() throws InterruptedException {
        if (nodes != null || launcherKind != null) {
            if (node != null) throw new RailyardException.Usage("--node names this node; across nodes use --nodes", "e.g. --nodes " + node);
            return new ApplyOnNodes(this).run();
        }
        Path dir = Path.of(root == null ? "/" : root);
        if (!Files.isDirectory(dir)) throw new RailyardException.Usage("--root " + dir + " is not a directory", "");
        TargetRoot target = new TargetRoot(dir);
        String undoCommand = "railyard apply --undo" + (live.test(dir) ? "" : " --root " + dir);
        if (force && !mode.undo && !mode.apply) {
            throw new RailyardException.Usage("--force goes with --apply (a host named otherwise than --node) or --undo (hand edits)",
                    "railyard apply --undo --force");
        }
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (noStart && mode.undo) throw new RailyardException.Usage("--no-start goes with --apply (or a dry run)", "railyard apply --apply --no-start");
        if (mode.undo) {
            try (ApplyLock lock = ApplyLock.acquire(dir)) {
                List<ApplyReport.FollowUp> steps = new ArrayList<>();
                // the units the apply enabled are disabled and stopped while their files are still there
                Backups.Backup b = new Backups(target).undoLatest(force, undoCommand,
                        before -> steps.addAll(run(dir, FollowUps.disable(Backups.enabled(before)), () -> false, false)));
                if (b.entries().stream().anyMatch(e -> e.path().startsWith("etc/systemd/system/"))) {
                    steps.addAll(run(dir, List.of(new FollowUps.Step(List.of("systemctl", "daemon-reload"), FollowUps.Kind.RELOAD,
                            "systemd units restored or removed")), () -> false, false));
                }
                print(out, ApplyReport.undone(Optional.ofNullable(node), dir.toString(), b, steps), undoCommand);
                return failedHint(steps, err, "the files were restored") ? ExitCodes.PREREQUISITE : ExitCodes.OK;
            }
        }
        if (!mode.apply) {
            Rendered r = rendered(dir, target);
            List<ApplyReport.FollowUp> planned = FollowUps.of(r.changes()).stream().map(st -> new ApplyReport.FollowUp(st.argv(), st.why(),
                    st.network(), outcomeWithout(st, dir).orElse(ApplyReport.Outcome.WOULD_RUN), "")).toList();
            print(out, ApplyReport.of(Optional.of(r.name()), dir.toString(), ApplyReport.Mode.DRY_RUN, r.changes(), Optional.empty(), planned),
                    undoCommand);
            return ExitCodes.OK;
        }
        // taken before the files are read: the diff must be against what no other apply is changing
        try (ApplyLock lock = ApplyLock.acquire(dir)) {
            return applyLocked(dir, target, undoCommand, out, err);
        }
    }

    private int applyLocked(Path dir, TargetRoot target, String undoCommand, PrintWriter out, PrintWriter err)
            throws InterruptedException {
        Rendered r = rendered(dir, target);
        AtomicBoolean stop = new AtomicBoolean();
        // a signal that came while rendering, before this stop action was there, counts too (requested())
        BooleanSupplier stopped = () -> stop.get() || Interrupts.requested();
        try (dev.railyard.platform.Cancellation.Registration onStop = Interrupts.onStop(() -> stop.set(true))) {
            Installer.Outcome done = new Installer(target, clock, stopped).apply(r.changes());
            long todo = r.changes().stream().filter(c -> c.kind() != Change.Kind.UNCHANGED).count();
            if (done.stopped()) {
                ApplyReport partial = ApplyReport.of(Optional.of(r.name()), dir.toString(), ApplyReport.Mode.APPLY, done.applied(),
                        done.backup(), List.of());
                if (format == FormatOption.TextOrJson.JSON) out.println(Json.write(partial));
                else out.print(ApplyText.node(partial, Optional.of(undoCommand), todo));
                out.flush();
                if (done.applied().isEmpty()) {
                    err.println("railyard: interrupted before any file was put in place: nothing was changed under " + dir);
                } else {
                    err.println("railyard: interrupted: " + done.applied().size() + " of " + todo + " file(s) were put in place "
                            + "(listed above, each whole), the other " + (todo - done.applied().size())
                            + " were not touched, and no follow-up command was run");
                    err.println("  hint: put back the files of this run: " + undoCommand + "; or finish it: the same railyard apply --apply again");
                }
                err.flush();
                return ExitCodes.FAIL_FINDING;
            }
            List<FollowUps.Step> steps = FollowUps.of(r.changes());
            List<ApplyReport.FollowUp> followUps = run(dir, steps, stopped, true);
            List<String> enabled = new ArrayList<>();
            for (int i = 0; i < followUps.size(); i++) {
                if (followUps.get(i).outcome() == ApplyReport.Outcome.RAN) steps.get(i).enables().ifPresent(enabled::add);
            }
            done.backup().ifPresent(b -> Backups.recordEnabled(b, enabled));
            print(out, ApplyReport.of(Optional.of(r.name()), dir.toString(), ApplyReport.Mode.APPLY, r.changes(), done.backup(), followUps),
                    undoCommand);
            List<ApplyReport.FollowUp> failed = followUps.stream().filter(f -> f.outcome() == ApplyReport.Outcome.FAILED).toList();
            if (!failed.isEmpty()) {
                for (ApplyReport.FollowUp f : failed) {
                    err.println("railyard: the files were written, but '" + String.join(" ", f.argv()) + "' failed (" + f.detail()
                            + "): what it applies has not taken effect");
                }
                err.println("  hint: fix the cause it names, then run: " + failed.stream().map(f -> String.join(" ", f.argv()))
                        .collect(java.util.stream.Collectors.joining(" && ")) + "; or put the old files back: " + undoCommand);
                err.flush();
                return ExitCodes.PREREQUISITE;
            }
            if (stopped.getAsBoolean()) {
                err.println("railyard: interrupted after every file was put in place; the follow-up commands not listed above were not run");
                err.flush();
                return ExitCodes.FAIL_FINDING;
            }
            return ExitCodes.OK;
        }
    }

    private void print(PrintWriter out, ApplyReport report, String undoCommand) {
        if (format == FormatOption.TextOrJson.JSON) out.println(Json.write(report));
        else out.print(ApplyText.node(report, Optional.of(undoCommand)));
        out.flush();
    }

    private record Rendered(String name, List<Change> changes) {}

    private Rendered rendered(Path dir, TargetRoot target) {
        ClusterSpec cluster = cluster();
        HostRoot host = isLive(dir) ? HostRoot.live() : HostRoot.at(dir);
        Optional<String> hostname = HostNameCheck.hostname(host);
        String name = SpecFiles.nodeName(cluster, node != null ? node : hostname
                .map(h -> cluster.nodeForHost(h).map(ClusterSpec.Node::name).orElse(h))
                .orElseThrow(() -> new RailyardException.Usage("no hostname under " + dir, "pass --node NAME")));
        Optional<String> mismatch = HostNameCheck.mismatch(cluster, name, hostname);
        if (mismatch.isPresent() && mode.apply && !force) {
            throw new RailyardException.Usage(mismatch.get() + ": apply would write " + name + "'s files here; nothing was changed",
                    "run it on " + name + ", or add --force if this host really is " + name);
        }
        if (mismatch.isPresent()) {
            PrintWriter err = spec.commandLine().getErr();
            err.println("railyard: warning: " + mismatch.get() + (mode.apply ? " (--force: applying anyway)" : "; --apply would refuse without --force"));
            err.flush();
        }
        Optional<List<RdmaDevice>> rdma = host.isDirectory("sys/class/infiniband")
                ? Optional.of(new InfinibandCollector().collect(host)) : Optional.empty();
        List<RenderedFile> files = NodeRenderer.all().render(cluster, name, rdma, RenderInput.DEFAULT_AGENT_PORT,
                InstalledSystem.read(host));
        return new Rendered(name, OtherNetworkFiles.resolve(cluster, name, target, target.changes(files),
                takeOver == null ? Set.of() : Set.copyOf(takeOver), mode.apply));
    }

    /** The spec from --spec, or inline from --spec-base64 (what apply across nodes hands each node). */
    ClusterSpec cluster() {
        if (specBase64 != null) return new SpecReader().read(specName != null ? specName : "--spec-base64", SpecHandoff.decode(specBase64));
        if (specFile == null) throw new RailyardException.Usage("--spec is needed to render the files", "add --spec cluster.yaml");
        return SpecFiles.load(specFile);
    }

    /** Why a step is not run here: a root other than /, networking without --restart-network, starting with --no-start. */
    private Optional<ApplyReport.Outcome> outcomeWithout(FollowUps.Step s, Path dir) {
        if (!live.test(dir)) return Optional.of(ApplyReport.Outcome.NEXT_STEP);
        if (s.network() && !restartNetwork) return Optional.of(ApplyReport.Outcome.NOT_RESTARTED);
        if (s.kind() == FollowUps.Kind.START && noStart) return Optional.of(ApplyReport.Outcome.NOT_STARTED);
        return Optional.empty();
    }

    /** Runs the steps in order (on / only); one per step in the result, until a stop request. */
    private List<ApplyReport.FollowUp> run(Path dir, List<FollowUps.Step> steps, java.util.function.BooleanSupplier stop, boolean honourNoStart) {
        List<ApplyReport.FollowUp> done = new ArrayList<>();
        for (FollowUps.Step s : steps) {
            Optional<ApplyReport.Outcome> skipped = outcomeWithout(s, dir)
                    .filter(o -> honourNoStart || o != ApplyReport.Outcome.NOT_STARTED);
            if (skipped.isPresent()) {
                done.add(new ApplyReport.FollowUp(s.argv(), s.why(), s.network(), skipped.get(), ""));
            } else if (stop.getAsBoolean()) {
                break; // interrupted: the caller says which ones did not run
            } else {
                CommandRunner.Result r = runner.run(s.argv(), Duration.ofSeconds(120));
                done.add(new ApplyReport.FollowUp(s.argv(), s.why(), s.network(),
                        r.ok() ? ApplyReport.Outcome.RAN : ApplyReport.Outcome.FAILED, r.ok() ? "" : failure(r)));
            }
        }
        return done;
    }

    /** Prints each failed step and the hint; whether there was one. */
    private static boolean failedHint(List<ApplyReport.FollowUp> steps, PrintWriter err, String what) {
        List<ApplyReport.FollowUp> failed = steps.stream().filter(f -> f.outcome() == ApplyReport.Outcome.FAILED).toList();
        if (failed.isEmpty()) return false;
        for (ApplyReport.FollowUp f : failed) {
            err.println("railyard: " + what + ", but '" + String.join(" ", f.argv()) + "' failed (" + f.detail() + ")");
        }
        err.println("  hint: fix the cause it names, then run: " + failed.stream().map(f -> String.join(" ", f.argv()))
                .collect(java.util.stream.Collectors.joining(" && ")));
        err.flush();
        return true;
    }

    /** Why a follow-up failed, with the end of what it printed (sysctl names the key it could not set). */
    private static String failure(CommandRunner.Result r) {
        if (r.notFound()) return r.startError();
        String why = r.timedOut() ? "timed out after 120 s" : "exit " + r.exitCode();
        List<String> lines = (r.stderr() + "\n" + r.stdout()).lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
        List<String> tail = lines.subList(Math.max(0, lines.size() - 10), lines.size());
        return tail.isEmpty() ? why : why + ": " + String.join(" | ", tail);
    }

    /** Whether apply works on this machine's own /, where it runs the follow-ups; a seam for tests. */
    java.util.function.Predicate<Path> live = ApplyCommand::isLive;

    private static boolean isLive(Path dir) {
        return dir.toAbsolutePath().normalize().equals(Path.of("/"));
    }
}
