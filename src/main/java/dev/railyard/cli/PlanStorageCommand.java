package dev.railyard.cli;

import dev.railyard.plan.StoragePlan;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.util.Optional;
import java.util.concurrent.Callable;

@Command(name = "storage", mixinStandardHelpOptions = true,
        description = {"The read throughput the GPUs need, per node and for all nodes, against a measured storage bench (MB/s per node)."},
        footer = {"", "Examples (8 nodes of 8 H100):",
                "  railyard plan storage --nodes 8 --bytes-per-step 4000000 --reads-per-step 2 \\",
                "      --steps-per-second 100",
                "  railyard plan storage --nodes 8 --gpus-per-node 8 --tokens 4096 --batch 8 \\",
                "      --bytes-per-token 2 --measured-mbps 2100"})
public final class PlanStorageCommand implements Callable<Integer> {

    @Option(names = "--nodes", required = true, description = "Nodes.") int nodes;
    @Option(names = "--bytes-per-step", description = "Bytes each node reads per step (else computed from tokens).") Double bytesPerStep;
    @Option(names = "--gpus-per-node", defaultValue = "8", description = "GPUs per node (default: ${DEFAULT-VALUE}).") int gpus;
    @Option(names = "--tokens", defaultValue = "4096", description = "Sequence length (default: ${DEFAULT-VALUE}).") long tokens;
    @Option(names = "--batch", defaultValue = "8", description = "Sequences per GPU per step (default: ${DEFAULT-VALUE}).") int batch;
    @Option(names = "--bytes-per-token", defaultValue = "2", description = "Bytes per token on disk (default: ${DEFAULT-VALUE}).") double bytesPerToken;
    @Option(names = "--reads-per-step", defaultValue = "1", description = "Times the data is read per step (default: ${DEFAULT-VALUE}).") double reads;
    @Option(names = "--steps-per-second", defaultValue = "100", description = "Training steps per second (default: ${DEFAULT-VALUE}).") double steps;
    @Option(names = "--measured-mbps", description = "Measured sequential read per node, MB/s (railyard bench storage).") Double measured;
    @Option(names = "--format", defaultValue = "text", paramLabel = "text|json", description = "Output format (default: ${DEFAULT-VALUE}).") OutputFormat format;

    @Spec CommandSpec spec;

    @Override
    public Integer call() {
        PlanCommand.positive("--nodes", nodes);
        PlanCommand.positive("--steps-per-second", steps);
        PlanCommand.positive("--reads-per-step", reads);
        PlanCommand.positive("--bytes-per-step", bytesPerStep);
        PlanCommand.positive("--gpus-per-node", gpus);
        PlanCommand.positive("--tokens", tokens);
        PlanCommand.positive("--batch", batch);
        PlanCommand.positive("--bytes-per-token", bytesPerToken);
        PlanCommand.positive("--measured-mbps", measured);
        return PlanCommand.print(spec, format, new StoragePlan(nodes, Optional.ofNullable(bytesPerStep), gpus, tokens, batch,
                bytesPerToken, reads, steps, Optional.ofNullable(measured)).calculate());
    }
}
