package dev.railyard.cli;

import dev.railyard.apply.ApplyReport;
import dev.railyard.cluster.ClusterApply;
import dev.railyard.cluster.Launcher;
import dev.railyard.cluster.LocalLauncher;
import dev.railyard.model.ClusterSpec;
import dev.railyard.model.NodeStatus;
import dev.railyard.model.RailyardException;
import dev.railyard.spec.SpecReader;
import dev.railyard.report.Json;
import dev.railyard.spec.SpecHandoff;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * apply --nodes: every named node runs {@code railyard apply --format json --node ITSELF} through validate's
 * launcher, with the spec handed over inline (--spec-base64) and the same mode, --restart-network and --root
 * ({node} in it replaced by the node's name). Prints each node's result and a summary; the exit code is the
 * highest of the nodes' ({@link ExitCodes#ofApply}).
 */
final class ApplyOnNodes {

    static final String NODE_PLACEHOLDER = "{node}";

    /** The cross-node document (docs/json.md): the summary counts every status, zeros included. */
    record Report(String cluster, String launcher, ApplyReport.Mode mode, int exitCode, Map<NodeStatus, Integer> summary,
                  List<ClusterApply.NodeResult> nodes) {}

    private final ApplyCommand command;

    ApplyOnNodes(ApplyCommand command) {
        this.command = command;
    }

    int run() throws InterruptedException {
        if (command.specFile == null) {
            throw new RailyardException.Usage("--nodes needs --spec: the nodes and how to reach them are in it",
                    "add --spec cluster.yaml");
        }
        if (command.maxParallel < 1) throw new RailyardException.Usage("--max-parallel must be at least 1", "");
        if (command.stepTimeout.isZero()) throw new RailyardException.Usage("--step-timeout must be positive", "e.g. --step-timeout 2m");
        ClusterSpec cluster = SpecFiles.load(command.specFile);
        String specText = specText();
        List<ClusterSpec.Node> targets = targets(cluster);
        ApplyReport.Mode mode = command.mode.undo ? ApplyReport.Mode.UNDO
                : command.mode.apply ? ApplyReport.Mode.APPLY : ApplyReport.Mode.DRY_RUN;
        String handoff = SpecHandoff.encode(specText);
        PrintWriter err = command.spec.commandLine().getErr();
        List<ClusterApply.NodeResult> results;
        try (Launcher launcher = launcher(cluster, err)) {
            err.println("railyard: apply (" + mode.name().toLowerCase().replace('_', '-') + ") on " + targets.size()
                    + " node(s) through the " + launcher.name() + " launcher");
            err.flush();
            results = new ClusterApply(launcher, command.stepTimeout, command.maxParallel)
                    .run(targets, n -> nodeArgs(n, mode, handoff));
            int code = ExitCodes.ofApply(results);
            print(new Report(cluster.cluster(), launcher.name(), mode, code, summary(results), results));
            return code;
        }
    }

    private void print(Report report) {
        PrintWriter out = command.spec.commandLine().getOut();
        if (command.format == FormatOption.TextOrJson.JSON) {
            out.println(Json.write(report));
        } else {
            out.print(ApplyText.nodes(report.launcher(), report.mode(), report.nodes(), Optional.of(undoCommand(report))));
        }
        out.flush();
    }

    /** The same command with --undo in place of --apply, over the nodes that were changed. */
    private String undoCommand(Report report) {
        List<String> changed = report.nodes().stream().filter(n -> n.result().map(r -> r.changed() > 0).orElse(false))
                .map(ClusterApply.NodeResult::node).toList();
        List<String> argv = new ArrayList<>(List.of("railyard", "apply", "--spec", command.specFile.toString(),
                "--nodes", String.join(",", changed), "--launcher", report.launcher(), "--undo"));
        if (command.root != null) argv.addAll(List.of("--root", command.root));
        return String.join(" ", argv);
    }

    private static Map<NodeStatus, Integer> summary(List<ClusterApply.NodeResult> results) {
        Map<NodeStatus, Integer> counts = new EnumMap<>(NodeStatus.class);
        for (NodeStatus s : NodeStatus.values()) counts.put(s, 0);
        results.forEach(r -> counts.merge(r.status(), 1, Integer::sum));
        return counts;
    }

    List<String> nodeArgs(ClusterSpec.Node node, ApplyReport.Mode mode, String handoff) {
        List<String> args = new ArrayList<>(List.of("apply", "--format", "json", "--node", node.name()));
        if (mode != ApplyReport.Mode.UNDO) {
            // the file's name goes too: the rendered files' headers name it, and must read as they do from render
            args.addAll(List.of("--spec-base64", handoff, "--spec-name", String.valueOf(command.specFile.getFileName())));
        }
        if (mode == ApplyReport.Mode.APPLY) args.add("--apply");
        if (mode == ApplyReport.Mode.UNDO) args.add("--undo");
        if (command.restartNetwork) args.add("--restart-network");
        if (command.noStart) args.add("--no-start");
        if (command.takeOver != null) args.addAll(List.of("--take-over", String.join(",", command.takeOver)));
        if (command.force) args.add("--force");
        if (command.root != null) args.addAll(List.of("--root", command.root.replace(NODE_PLACEHOLDER, node.name())));
        return args;
    }

    /** --nodes all (or --launcher alone): every node; else the named ones, each once, in the spec's order. */
    private List<ClusterSpec.Node> targets(ClusterSpec cluster) {
        List<String> names = command.nodes == null ? List.of("all") : command.nodes.stream().map(String::strip).toList();
        if (names.contains("all")) {
            if (names.size() > 1) throw new RailyardException.Usage("--nodes all takes no other names", "--nodes all, or --nodes a,b");
            return cluster.nodes();
        }
        LinkedHashSet<String> wanted = new LinkedHashSet<>();
        for (String n : names) wanted.add(SpecFiles.nodeName(cluster, n));
        return cluster.nodes().stream().filter(n -> wanted.contains(n.name())).toList();
    }

    private Launcher launcher(ClusterSpec cluster, PrintWriter err) {
        ValidateCommand.LauncherKind kind = command.launcherKind != null ? command.launcherKind : ValidateCommand.LauncherKind.SSH;
        return switch (kind) {
            case LOCAL -> LocalLauncher.ofThisJvm();
            case SSH -> command.remote.ssh(cluster, err);
            case SLURM -> command.remote.slurm(cluster, err);
        };
    }

    private String specText() {
        return SpecReader.text(command.specFile);
    }
}
