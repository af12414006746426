package dev.railyard.plan;

import dev.railyard.plan.Calculation.Quantity;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The read throughput training needs, so storage is sized before GPUs wait on it: bytes per step (given, or GPUs × tokens × batch × bytes per token)
 * × reads per step × steps per second, per node and for all nodes, against a measured storage bench.
 */
public record StoragePlan(int nodes, Optional<Double> bytesPerStep, int gpusPerNode, long tokens, int batch,
                          double bytesPerToken, double readsPerStep, double stepsPerSecond, Optional<Double> measuredMBps) {

    public Calculation calculate() {
        double computed = gpusPerNode * (double) tokens * batch * bytesPerToken;
        double step = bytesPerStep.orElse(computed);
        double perNode = step * readsPerStep * stepsPerSecond;
        List<Quantity> results = new ArrayList<>(List.of(
                new Quantity("bytes_per_step", step / 1e6, "MB"),
                new Quantity("need_per_node", perNode / 1e6, "MB/s"),
                new Quantity("need_all_nodes", perNode * nodes / 1e9, "GB/s")));
        List<String> notes = new ArrayList<>();
        if (bytesPerStep.isPresent()) {
            notes.add("bytes per step given; by tokens it would be " + gpusPerNode + " x " + tokens + " x " + batch + " x "
                    + Calculation.number(bytesPerToken) + " = " + Calculation.number(computed / 1e6) + " MB (the 8 x H100 sizing calls this 4 MB)");
        }
        if (readsPerStep > 1) notes.add("reads per step " + Calculation.number(readsPerStep) + ": the 8 x H100 sizing counts the data again for the backward pass, which reads nothing new");
        measuredMBps.ifPresent(m -> {
            results.add(new Quantity("measured_per_node", m, "MB/s"));
            results.add(new Quantity("headroom", m / (perNode / 1e6), "x"));
            notes.add(m >= perNode / 1e6 ? "the measured storage keeps up" : "the measured storage is short: the GPUs will wait for data");
        });
        return new Calculation("plan storage",
                List.of("bytes_per_step = bytes_per_step given, else gpus_per_node x tokens x batch x bytes_per_token",
                        "need_per_node = bytes_per_step x reads_per_step x steps_per_second; need_all_nodes = nodes x need_per_node"),
                List.of(new Quantity("nodes", nodes, ""), new Quantity("gpus_per_node", gpusPerNode, ""),
                        new Quantity("tokens", tokens, ""), new Quantity("batch", batch, ""),
                        new Quantity("bytes_per_token", bytesPerToken, "B"), new Quantity("reads_per_step", readsPerStep, ""),
                        new Quantity("steps_per_second", stepsPerSecond, "1/s")),
                results, notes);
    }
}
