package dev.railyard.plan;

import dev.railyard.plan.Calculation.Quantity;

import java.util.ArrayList;
import java.util.List;

/**
 * A rail-optimised fabric (each GPU's NIC on its own rail, so GPU r talks to GPU r of every node in one hop): rail r joins NIC r of every node. Two nodes need no switch (back to back);
 * up to radix nodes need one leaf switch per rail; beyond that each rail is a non-blocking two-tier fat tree
 * (half of each leaf's ports down, half up) over a shared spine layer.
 */
public record RailsPlan(int nodes, int rails, int radix) {

    public Calculation calculate() {
        List<String> notes = new ArrayList<>();
        double leaves;
        double spines = 0;
        double cables;
        if (nodes <= 2) {
            leaves = 0;
            cables = (double) rails * Math.max(0, nodes - 1);
            notes.add("two nodes: cable each rail back to back (one DAC per rail), no switch");
        } else if (nodes <= radix) {
            leaves = rails;
            cables = (double) nodes * rails;
            notes.add("one " + radix + "-port switch per rail, " + nodes + " ports used on each");
        } else {
            int down = radix / 2;
            double leavesPerRail = Math.ceil((double) nodes / down);
            leaves = leavesPerRail * rails;
            double uplinks = (double) nodes * rails;
            spines = Math.ceil(uplinks / radix);
            cables = 2 * uplinks;
            notes.add("two tiers: " + Calculation.number(leavesPerRail) + " leaves per rail with " + down + " ports down and up each");
            if (spines > down) notes.add("more spines than a leaf has uplinks (" + down + "): this needs a third tier");
        }
        return new Calculation("plan rails",
                List.of("nodes <= 2: switches = 0, cables = rails",
                        "nodes <= radix: switches = rails, cables = nodes x rails",
                        "else: leaves = rails x ceil(nodes / (radix/2)), spines = ceil(nodes x rails / radix), cables = 2 x nodes x rails"),
                List.of(new Quantity("nodes", nodes, ""), new Quantity("rails", rails, "NICs per node"),
                        new Quantity("radix", radix, "ports per switch")),
                List.of(new Quantity("leaf_switches", leaves, ""), new Quantity("spine_switches", spines, ""),
                        new Quantity("switches", leaves + spines, ""), new Quantity("cables", cables, "")),
                notes);
    }
}
