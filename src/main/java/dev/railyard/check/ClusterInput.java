package dev.railyard.check;

import dev.railyard.model.ClusterSpec;
import dev.railyard.model.NodeFacts;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * What the cluster checks judge: the spec, the facts of every node that answered, and for each node that did not,
 * why (its comparisons are UNKNOWN, never PASS).
 */
public record ClusterInput(ClusterSpec spec, Map<String, NodeFacts> facts, Map<String, String> missing) {

    public ClusterInput {
        facts = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(facts));
        missing = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(missing));
    }

    public Optional<NodeFacts> factsOf(String node) {
        return Optional.ofNullable(facts.get(node));
    }

    /** Why a node has no facts ("unreachable: ..."), for UNKNOWN findings. */
    public String whyMissing(String node) {
        return missing.getOrDefault(node, "no inventory from " + node);
    }

    public Optional<NodeFacts.Netdev> netdev(String node, String name) {
        return factsOf(node).flatMap(f -> f.netdevs().stream().filter(d -> d.name().equals(name)).findFirst());
    }
}
