package dev.railyard.agent;

import dev.railyard.model.Finding;
import dev.railyard.model.NodeInventory;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/** One sampling of the node: what was read, what the checks and detectors made of it, and how long it took. */
public record NodeSample(Instant at, NodeInventory inventory, List<Finding> findings, Duration took) {

    public NodeSample {
        findings = List.copyOf(findings);
    }
}
