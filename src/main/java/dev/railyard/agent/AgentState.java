package dev.railyard.agent;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the agent publishes after each sample, immutable so HTTP threads read it without locks: the sample, per
 * component health, the node's health, short histories for sparklines, and what it last did in Slurm.
 */
public record AgentState(
        String node,
        long sampleCount,
        Optional<NodeSample> sample,
        List<ComponentHealth> components,
        HealthState health,
        Map<String, List<TimeSeries.Point>> temperatureHistory,
        Map<String, List<TimeSeries.Point>> errorHistory,
        SlurmStatus slurm,
        Instant startedAt,
        Optional<ActiveCheckHistory.LastActiveCheck> lastActiveCheck) {

    public AgentState {
        components = List.copyOf(components);
        temperatureHistory = Map.copyOf(temperatureHistory);
        errorHistory = Map.copyOf(errorHistory);
    }

    /** A state with no scheduled active check known. */
    public AgentState(String node, long sampleCount, Optional<NodeSample> sample, List<ComponentHealth> components,
                      HealthState health, Map<String, List<TimeSeries.Point>> temperatureHistory,
                      Map<String, List<TimeSeries.Point>> errorHistory, SlurmStatus slurm, Instant startedAt) {
        this(node, sampleCount, sample, components, health, temperatureHistory, errorHistory, slurm, startedAt,
                Optional.empty());
    }

    /** Before the first sample: nothing judged, so nothing promised. */
    public static AgentState starting(String node, Instant at, SlurmStatus slurm) {
        return new AgentState(node, 0, Optional.empty(), List.of(), HealthState.DEGRADED, Map.of(), Map.of(), slurm, at);
    }
}
