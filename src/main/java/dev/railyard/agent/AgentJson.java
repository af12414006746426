package dev.railyard.agent;

import dev.railyard.collect.SourceReads;
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

    /**
     * {@code sampleAgeMs} is how old the newest sample was when this was written, {@code stale} whether that is
     * past the agent's stale limit (then health is the last one known, not a live one); {@code stuckSources} the
     * readers that gave no answer in time.
     */
    public record Health(int schemaVersion, String node, HealthState health, Optional<Instant> sampledAt,
                         Optional<Long> sampleAgeMs, boolean stale, long samples, List<ComponentHealth> components,
                         List<SourceReads.Stuck> stuckSources, SlurmStatus slurm, boolean nvmlUp) {}

    public record Findings(int schemaVersion, String node, Optional<Instant> sampledAt, List<Finding> findings) {}

    public record Inventory(int schemaVersion, String node, Optional<NodeInventory> inventory) {}

    /** Right after a sample (--once): its age is what sampling took to publish it, nothing is stale. */
    public static String health(AgentState s) {
        return health(s, s.sample().map(NodeSample::at).orElse(s.startedAt()), java.time.Duration.ofDays(1));
    }

    public static String health(AgentState s, Instant now, java.time.Duration staleAfter) {
        boolean nvml = s.sample().map(x -> x.inventory().gpu().nvml().isPresent()).orElse(false);
        Optional<Long> age = s.sample().map(x -> Math.max(0, java.time.Duration.between(x.at(), now).toMillis()));
        boolean stale = s.sample().isEmpty() || age.orElseThrow() > staleAfter.toMillis();
        return Json.write(new Health(SCHEMA_VERSION, s.node(), s.health(), s.sample().map(NodeSample::at), age, stale,
                s.sampleCount(), s.components(), s.sample().map(NodeSample::stuck).orElse(List.of()), s.slurm(), nvml));
    }

    public static String findings(AgentState s) {
        return Json.write(new Findings(SCHEMA_VERSION, s.node(), s.sample().map(NodeSample::at),
                s.sample().map(NodeSample::findings).orElse(List.of())));
    }

    public static String inventory(AgentState s) {
        return Json.write(new Inventory(SCHEMA_VERSION, s.node(), s.sample().map(NodeSample::inventory)));
    }
}
