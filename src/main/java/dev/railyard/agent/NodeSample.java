package dev.railyard.agent;

import dev.railyard.collect.SourceReads;
import dev.railyard.model.Finding;
import dev.railyard.model.NodeInventory;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * One sampling of the node: what was read, what the checks and detectors made of it (one finding per check and
 * subject, merged where two judges reach one subject), how long it took, and which sources gave no answer in time
 * (their components are UNKNOWN in {@code findings}).
 */
public record NodeSample(Instant at, NodeInventory inventory, List<Finding> findings, Duration took,
                         List<SourceReads.Stuck> stuck) {

    public NodeSample {
        findings = List.copyOf(Finding.merged(findings));
        stuck = List.copyOf(stuck);
    }

    public NodeSample(Instant at, NodeInventory inventory, List<Finding> findings, Duration took) {
        this(at, inventory, findings, took, List.of());
    }
}
