package dev.railyard.plan;

import dev.railyard.plan.Calculation.Quantity;

import java.util.ArrayList;
import java.util.List;

/**
 * Power as cluster sizings count it: GPUs × TDP plus host overhead per node, PSU redundancy, PDU breakers loaded
 * to a derating (80 % continuous load), and PUE to facility power.
 */
public record PowerPlan(int nodes, int gpusPerNode, double gpuWatts, double hostWatts, double psuWatts, int psusPerNode,
                        int psuSpares, double breakerAmps, double volts, int phases, double derate, double pue) {

    public Calculation calculate() {
        return calculate(java.util.Collections.nCopies(nodes, gpusPerNode));
    }

    /**
     * With each node's own GPU count (a spec with mixed nodes): the sums are over the nodes, and the PSU and breaker
     * checks are for the node with the most GPUs ({@code gpusPerNode}, which the caller sets to that maximum).
     */
    private static boolean mixed(List<Integer> perNode) {
        return perNode.stream().distinct().count() > 1;
    }

    public Calculation calculate(List<Integer> perNode) {
        int allGpus = perNode.stream().mapToInt(Integer::intValue).sum();
        double gpuW = (double) allGpus * gpuWatts;
        double nodeW = gpusPerNode * gpuWatts + hostWatts;
        double itW = allGpus * gpuWatts + perNode.size() * hostWatts;
        double breakerW = breakerAmps * volts * (phases == 3 ? Math.sqrt(3) : 1) * derate;
        int nodesPerBreaker = (int) Math.floor(breakerW / nodeW);
        List<Quantity> results = new ArrayList<>(List.of(
                new Quantity("gpu_power", gpuW / 1000, "kW"),
                new Quantity("node_power", nodeW, "W"),
                new Quantity("it_power", itW / 1000, "kW"),
                new Quantity("facility_power", itW * pue / 1000, "kW"),
                new Quantity("breaker_usable", breakerW, "W"),
                new Quantity("nodes_per_breaker", nodesPerBreaker, "")));
        List<String> notes = new ArrayList<>();
        if (nodesPerBreaker >= 1) {
            results.add(new Quantity("breakers", Math.ceil((double) perNode.size() / nodesPerBreaker), ""));
        } else {
            notes.add("one node (" + Calculation.number(nodeW) + " W) exceeds one " + Calculation.number(breakerAmps)
                    + " A breaker at " + Math.round(derate * 100) + " %: feed each node from several circuits (one per PSU)");
        }
        if (psuWatts > 0) {
            double usable = (psusPerNode - psuSpares) * psuWatts;
            results.add(new Quantity("psu_usable_per_node", usable, "W"));
            if (usable < nodeW) {
                notes.add(psusPerNode + " x " + Calculation.number(psuWatts) + " W PSUs with " + psuSpares
                        + " spare carry " + Calculation.number(usable) + " W, less than the node's " + Calculation.number(nodeW)
                        + " W (2 x 2000 W for 8 x 700 W H100 GPUs is short even without redundancy)");
            }
        }
        if (hostWatts == 0) notes.add("host overhead 0 W: GPUs only, as in the 44.8 kW of 8 nodes x 8 H100; add --host-watts for CPUs, memory, NICs and fans");
        notes.add("breaker: amps x volts" + (phases == 3 ? " x sqrt(3) (three-phase, line-to-line volts)" : " (single-phase)")
                + " x " + derate + " continuous-load derating");
        return new Calculation("plan power",
                List.of(mixed(perNode) ? "gpu_power = (sum of each node's GPUs) x gpu_watts" : "gpu_power = nodes x gpus_per_node x gpu_watts",
                        mixed(perNode) ? "node_power = gpus_per_node (the largest node's) x gpu_watts + host_watts; "
                                + "it_power = (sum of each node's GPUs) x gpu_watts + nodes x host_watts"
                                : "node_power = gpus_per_node x gpu_watts + host_watts; it_power = nodes x node_power",
                        "facility_power = it_power x pue",
                        "breaker_usable = breaker_amps x volts" + (phases == 3 ? " x sqrt(3)" : "") + " x derate; breakers = ceil(nodes / floor(breaker_usable / node_power))",
                        "psu_usable_per_node = (psus_per_node - psu_spares) x psu_watts"),
                List.of(new Quantity("nodes", nodes, ""), new Quantity("gpus_per_node", gpusPerNode, ""),
                        new Quantity("gpu_watts", gpuWatts, "W"), new Quantity("host_watts", hostWatts, "W"),
                        new Quantity("psu_watts", psuWatts, "W"), new Quantity("psus_per_node", psusPerNode, ""),
                        new Quantity("psu_spares", psuSpares, ""), new Quantity("breaker_amps", breakerAmps, "A"),
                        new Quantity("volts", volts, "V"), new Quantity("phases", phases, ""),
                        new Quantity("derate", derate, ""), new Quantity("pue", pue, "")),
                results, notes);
    }
}
