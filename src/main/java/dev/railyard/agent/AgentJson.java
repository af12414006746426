package dev.railyard.agent;

import dev.railyard.model.Finding;
import dev.railyard.model.NodeInventory;
import dev.railyard.report.Json;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** The agent's JSON API bodies (documented in docs/metrics.md, "HTTP API"); each carries a schemaVersion. */
public final class AgentJson {

    public static final int SCHEMA_VERSION = 1;

    private AgentJson() {
    }

    public record Health(int schemaVersion, String node, HealthState health, Optional<Instant> sampledAt,
                         long samples, List<ComponentHealth> components, SlurmStatus slurm, boolean nvmlUp) {}

    public record Findings(int schemaVersion, String node, Optional<Instant> sampledAt, List<Finding> findings) {}

    public record Inventory(int schemaVersion, String node, Optional<NodeInventory> inventory) {}

    public static String health(AgentState s) {
        boolean nvml = s.sample().map(x -> x.inventory().gpu().nvml().isPresent()).orElse(false);
        return Json.write(new Health(SCHEMA_VERSION, s.node(), s.health(), s.sample().map(NodeSample::at),
                s.sampleCount(), s.components(), s.slurm(), nvml));
    }

    public static String findings(AgentState s) {
        return Json.write(new Findings(SCHEMA_VERSION, s.node(), s.sample().map(NodeSample::at),
                s.sample().map(NodeSample::findings).orElse(List.of())));
    }

    public static String inventory(AgentState s) {
        return Json.write(new Inventory(SCHEMA_VERSION, s.node(), s.sample().map(NodeSample::inventory)));
    }
}
