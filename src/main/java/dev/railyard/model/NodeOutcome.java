package dev.railyard.model;

import java.util.List;
import java.util.Optional;

/**
 * One node's part of a validate run: how far it got ({@code detail} says why when not COMPLETED), its node-level
 * findings, and the facts the cluster checks compare.
 */
public record NodeOutcome(String node, NodeStatus status, String detail, List<Finding> findings,
                          Optional<NodeFacts> facts) {

    public NodeOutcome {
        findings = List.copyOf(findings);
    }
}
