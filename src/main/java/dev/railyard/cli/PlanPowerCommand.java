package dev.railyard.cli;

import dev.railyard.plan.PowerPlan;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

@Command(name = "power", mixinStandardHelpOptions = true,
        description = {"GPU, node, IT and facility power; PSU redundancy; PDU breakers at a continuous-load derating."},
        footer = {"", "Example (8 nodes of 8 H100: 44.8 kW of GPUs):",
                "  railyard plan power --nodes 8 --gpus-per-node 8 --gpu-watts 700 \\", "      --psu-watts 2000 --psus-per-node 2"})
public final class PlanPowerCommand implements Callable<Integer> {

    @Option(names = "--spec", paramLabel = "FILE", description = "Nodes and each node's GPUs from a cluster spec (instead of --nodes and --gpus-per-node).") java.nio.file.Path specFile;
    @Option(names = "--nodes", description = "Nodes.") Integer nodesOption;
    @Option(names = "--gpus-per-node", description = "GPUs per node.") Integer gpusPerNodeOption;
    @Option(names = "--gpu-watts", required = true, description = "GPU TDP in W (H100 SXM5: 700).") double gpuWatts;
    @Option(names = "--host-watts", defaultValue = "0", description = "Per-node power besides GPUs, W (default: ${DEFAULT-VALUE}).") double hostWatts;
    @Option(names = "--psu-watts", defaultValue = "0", description = "Rating of one PSU, W (0: skip the PSU check).") double psuWatts;
    @Option(names = "--psus-per-node", defaultValue = "2", description = "PSUs per node (default: ${DEFAULT-VALUE}).") int psus;
    @Option(names = "--psu-spares", defaultValue = "1", description = "PSUs that may fail (default: ${DEFAULT-VALUE}, N+1).") int spares;
    @Option(names = "--breaker-amps", defaultValue = "32", description = "PDU breaker rating, A (default: ${DEFAULT-VALUE}).") double amps;
    @Option(names = "--volts", defaultValue = "230", description = "Supply voltage, V; line-to-line for three-phase (default: ${DEFAULT-VALUE}).") double volts;
    @Option(names = "--phases", defaultValue = "1", description = "1 or 3 (default: ${DEFAULT-VALUE}).") int phases;
    @Option(names = "--derate", defaultValue = "0.8", description = "Share of a breaker's rating for continuous load (default: ${DEFAULT-VALUE}).") double derate;
    @Option(names = "--pue", defaultValue = "1.2", description = "Power usage effectiveness (typically 1.2-1.4; default: ${DEFAULT-VALUE}).") double pue;
    @Option(names = "--format", defaultValue = "text", paramLabel = "text|json", description = "Output format (default: ${DEFAULT-VALUE}).") OutputFormat format;

    @Spec CommandSpec spec;

    @Override
    public Integer call() {
        java.util.Optional<dev.railyard.plan.ClusterShape> shape = java.util.Optional.ofNullable(specFile)
                .map(f -> dev.railyard.plan.ClusterShape.of(SpecFiles.load(f)));
        if (shape.isEmpty() && (nodesOption == null || gpusPerNodeOption == null)) {
            throw new dev.railyard.model.RailyardException.Usage("--nodes and --gpus-per-node are needed (or --spec FILE)",
                    "e.g. --nodes 8 --gpus-per-node 8, or --spec cluster.yaml");
        }
        java.util.List<Integer> perNode = nodesOption != null || shape.isEmpty()
                ? java.util.Collections.nCopies(nodesOption, gpusPerNodeOption != null ? gpusPerNodeOption : shape.get().mostGpusPerNode())
                : gpusPerNodeOption != null ? java.util.Collections.nCopies(shape.get().nodes().size(), gpusPerNodeOption) : shape.get().gpusPerNode();
        int nodes = perNode.size();
        int gpusPerNode = perNode.stream().mapToInt(Integer::intValue).max().orElse(0);
        PlanCommand.positive("--nodes", nodes);
        PlanCommand.positive("--gpus-per-node", gpusPerNode);
        PlanCommand.positive("--gpu-watts", gpuWatts);
        PlanCommand.atLeast("--host-watts", hostWatts, 0);
        PlanCommand.atLeast("--psu-watts", psuWatts, 0);
        PlanCommand.positive("--psus-per-node", psus);
        PlanCommand.atLeast("--psu-spares", spares, 0);
        PlanCommand.positive("--breaker-amps", amps);
        PlanCommand.positive("--volts", volts);
        // a breaker carries at most its rating: a continuous-load share above 1 would plan past it
        PlanCommand.within("--derate", derate, 0.01, 1);
        // facility power is at least the IT power
        PlanCommand.atLeast("--pue", pue, 1);
        if (phases != 1 && phases != 3) throw new dev.railyard.model.RailyardException.Usage("--phases is 1 or 3, got " + phases, "");
        if (spares >= psus && psuWatts > 0) throw new dev.railyard.model.RailyardException.Usage("--psu-spares must be fewer than --psus-per-node", "");
        return PlanCommand.print(spec, format, new PowerPlan(nodes, gpusPerNode, gpuWatts, hostWatts, psuWatts, psus, spares,
                amps, volts, phases, derate, pue).calculate(perNode).withNotes(shape.map(dev.railyard.plan.ClusterShape::notes)
                .orElse(java.util.List.of())));
    }
}
