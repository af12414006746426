package dev.railyard.cli;

import dev.railyard.model.RailyardException;
import dev.railyard.plan.AllreducePlan;
import dev.railyard.plan.Fabric;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.Callable;

@Command(name = "allreduce", mixinStandardHelpOptions = true,
        description = {"Ring and tree all-reduce time for a message on a fabric (alpha-beta model), and the share of a "
                + "training step spent on the gradient all-reduce. Fabrics: nvlink-h100, ib-qdr, ib-edr, ib-hdr, ib-ndr, roce-25, roce-40, roce-100, roce-200, roce-400."},
        footer = {"", "Example (8 nodes of 8 H100, one HDR HCA per node):",
                "  railyard plan allreduce --gpus 64 --gpus-per-node 8 --size 100000000 \\",
                "      --fabric ib-hdr --params 7e9 --step-time 1.0"})
public final class PlanAllreduceCommand implements Callable<Integer> {

    @Option(names = "--spec", paramLabel = "FILE", description = "GPUs (each node's own), GPUs per node (the largest node's), "
            + "NICs per node and the fabric from a cluster spec; an option given as well wins.") java.nio.file.Path specFile;
    @Option(names = "--gpus", description = "GPUs taking part.") Integer gpusOption;
    @Option(names = "--gpus-per-node", description = "GPUs per node (default: 8).") Integer gpusPerNodeOption;
    @Option(names = "--size", defaultValue = "1G", converter = ByteSizeConverter.class, description = "Message size, e.g. 100M, 1G (binary units; default: ${DEFAULT-VALUE}).") long size;
    @Option(names = "--fabric", description = "The bottleneck link: see above.") String fabric;
    @Option(names = "--nics-per-node", description = "Fabric NICs per node (default: 1).") Integer nicsOption;
    @Option(names = "--link-gbytes", description = "Override the link bandwidth, GB/s per direction.") Double link;
    @Option(names = "--alpha-us", description = "Override the per-step latency, microseconds.") Double alpha;
    @Option(names = "--measured-busbw", description = "A measured busbw (GB/s, from bench nccl) to use instead of the model's bandwidth.") Double measured;
    @Option(names = "--params", description = "Model parameters (7e9), for the gradient all-reduce.") Double params;
    @Option(names = "--bytes-per-param", defaultValue = "2", description = "Gradient bytes per parameter (bf16: 2; default: ${DEFAULT-VALUE}).") double bytesPerParam;
    @Option(names = "--step-time", description = "Seconds per training step, for the communication share.") Double step;
    @Option(names = "--format", defaultValue = "text", paramLabel = "text|json", description = "Output format (default: ${DEFAULT-VALUE}).") OutputFormat format;

    @Spec CommandSpec spec;

    @Override
    public Integer call() {
        java.util.Optional<dev.railyard.plan.ClusterShape> shape = java.util.Optional.ofNullable(specFile)
                .map(file -> dev.railyard.plan.ClusterShape.of(SpecFiles.load(file)));
        if (gpusOption == null && shape.isEmpty()) throw new RailyardException.Usage("--gpus is needed (or --spec FILE)", "e.g. --gpus 64");
        int gpus = gpusOption != null ? gpusOption : shape.get().gpus();
        int gpusPerNode = gpusPerNodeOption != null ? gpusPerNodeOption : shape.map(dev.railyard.plan.ClusterShape::mostGpusPerNode).orElse(8);
        int nics = nicsOption != null ? nicsOption : shape.map(dev.railyard.plan.ClusterShape::nicsPerNode).orElse(1);
        if (fabric == null) {
            fabric = shape.flatMap(dev.railyard.plan.ClusterShape::fabric).map(x -> x.label).orElseThrow(() -> new RailyardException.Usage(
                    shape.isEmpty() ? "--fabric is needed" : "the spec's compute networks name no rate railyard has a preset for",
                    "pass --fabric: one of " + String.join(", ", Arrays.stream(Fabric.values()).map(x -> x.label).toList())));
        }
        Fabric f;
        try {
            f = Fabric.parse(fabric);
        } catch (IllegalArgumentException e) {
            throw new RailyardException.Usage("--fabric " + fabric + " is not known",
                    "one of: " + String.join(", ", Arrays.stream(Fabric.values()).map(x -> x.label).toList()));
        }
        PlanCommand.positive("--gpus", gpus);
        PlanCommand.positive("--gpus-per-node", gpusPerNode);
        PlanCommand.positive("--size", size);
        PlanCommand.positive("--nics-per-node", nics);
        PlanCommand.positive("--link-gbytes", link);
        if (alpha != null) PlanCommand.atLeast("--alpha-us", alpha, 0);
        PlanCommand.positive("--measured-busbw", measured);
        PlanCommand.positive("--params", params);
        PlanCommand.positive("--bytes-per-param", bytesPerParam);
        PlanCommand.positive("--step-time", step);
        return PlanCommand.print(spec, format, new AllreducePlan(gpus, gpusPerNode, size, f, nics, Optional.ofNullable(link),
                Optional.ofNullable(alpha), Optional.ofNullable(measured), Optional.ofNullable(params), bytesPerParam,
                Optional.ofNullable(step)).calculate().withNotes(shape.map(dev.railyard.plan.ClusterShape::notes).orElse(java.util.List.of())));
    }
}
