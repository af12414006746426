package dev.railyard.plan;

import dev.railyard.plan.Calculation.Quantity;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The α-β model of all-reduce time. Both algorithms move 2(p-1)/p of the message over the bottleneck link, which
 * across nodes is the node's NICs (one HDR HCA for 8 GPUs caps busbw at 25 GB/s, what all_reduce_perf shows on such
 * nodes); the ring pays 2(p-1) latencies, the tree 2·log2(p). A measured busbw replaces
 * the modelled bandwidth and the output says so.
 */
public record AllreducePlan(int gpus, int gpusPerNode, double bytes, Fabric fabric, int nicsPerNode,
                            Optional<Double> linkGBps, Optional<Double> alphaUs, Optional<Double> measuredBusbw,
                            Optional<Double> params, double bytesPerParam, Optional<Double> stepSeconds) {

    public Calculation calculate() {
        int p = gpus;
        int nodes = (int) Math.ceil((double) gpus / gpusPerNode);
        double link = linkGBps.orElse(fabric.gbytesPerSecond);
        double alpha = alphaUs.orElse(fabric.alphaUs) * 1e-6;
        double modelBus = nodes > 1 ? nicsPerNode * link : link;
        double bus = measuredBusbw.orElse(modelBus);
        double factor = p > 1 ? 2.0 * (p - 1) / p : 0;
        double ring = time(bytes, factor, bus, 2.0 * (p - 1) * alpha);
        double tree = time(bytes, factor, bus, 2.0 * Math.ceil(log2(p)) * alpha);
        List<Quantity> results = new ArrayList<>(List.of(
                new Quantity("nodes", nodes, ""),
                new Quantity("bus_bandwidth_bound", bus, "GB/s"),
                new Quantity("ring_time", ring * 1e3, "ms"),
                new Quantity("tree_time", tree * 1e3, "ms"),
                new Quantity("ring_busbw", p > 1 ? factor * bytes / ring / 1e9 : 0, "GB/s"),
                new Quantity("tree_busbw", p > 1 ? factor * bytes / tree / 1e9 : 0, "GB/s")));
        List<String> notes = new ArrayList<>();
        notes.add(measuredBusbw.isPresent()
                ? "bandwidth from the measured busbw " + Calculation.number(bus) + " GB/s, not the model's " + Calculation.number(modelBus) + " GB/s"
                : "no measured busbw given (railyard bench nccl prints one; pass it as --measured-busbw): bandwidth is the model's");
        if (nodes > 1) {
            notes.add(nicsPerNode + " NIC(s) of " + Calculation.number(link) + " GB/s per node carry the traffic of "
                    + gpusPerNode + " GPUs across nodes: that, not NVLink, bounds busbw");
        }
        if (params.isPresent()) {
            double gradBytes = params.get() * bytesPerParam;
            double comm = time(gradBytes, factor, bus, 2.0 * (p - 1) * alpha);
            results.add(new Quantity("gradient_bytes", gradBytes / 1e9, "GB"));
            results.add(new Quantity("gradient_allreduce_ring", comm, "s"));
            stepSeconds.ifPresent(step -> results.add(new Quantity("communication_share", comm / step * 100, "% of a step (no overlap)")));
        }
        List<Quantity> inputs = new ArrayList<>(List.of(new Quantity("gpus", p, ""), new Quantity("gpus_per_node", gpusPerNode, ""),
                new Quantity("message", bytes, "B"), new Quantity("link_bandwidth", link, "GB/s (" + fabric.label + ")"),
                new Quantity("nics_per_node", nicsPerNode, ""), new Quantity("alpha", alpha * 1e6, "us")));
        params.ifPresent(n -> inputs.add(new Quantity("params", n, "")));
        params.ifPresent(n -> inputs.add(new Quantity("bytes_per_param", bytesPerParam, "B")));
        stepSeconds.ifPresent(s -> inputs.add(new Quantity("step_time", s, "s")));
        return new Calculation("plan allreduce",
                List.of("bus_bandwidth_bound = nics_per_node x link_bandwidth across nodes, link_bandwidth within one node",
                        "ring: T = 2(p-1) x alpha + 2(p-1)/p x message / bus_bandwidth",
                        "tree: T = 2 ceil(log2 p) x alpha + 2(p-1)/p x message / bus_bandwidth",
                        "busbw = 2(p-1)/p x message / T (as nccl-tests reports it)",
                        "communication_share = T(params x bytes_per_param) / step_time"),
                inputs, results, notes);
    }

    private static double time(double bytes, double factor, double busGBps, double latency) {
        return latency + factor * bytes / (busGBps * 1e9);
    }

    private static double log2(int p) {
        return Math.log(p) / Math.log(2);
    }
}
