package dev.railyard.agent;

import dev.railyard.check.rules.RdmaCountersRule;
import dev.railyard.model.Gpu;
import dev.railyard.model.RdmaPort;
import dev.railyard.model.Reading;
import dev.railyard.platform.Clock;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The agent's loop: sample, fold into health with hold-down, act in Slurm, publish an immutable {@link AgentState}
 * for the HTTP side. {@link #tick()} is one round, so tests drive it with a stepped clock instead of sleeping.
 */
public final class Agent {

    /** Points kept per sparkline: two minutes at 1 s sampling. */
    static final int SPARK_POINTS = 120;

    private final Sampler sampler;
    private final HealthTracker tracker;
    private final Optional<SlurmDrainPolicy> slurm;
    private final KernelLogFollower kernelLog;
    private final Clock clock;
    private final Map<String, TimeSeries> temperatures = new HashMap<>();
    private final Map<String, TimeSeries> errors = new HashMap<>();
    private final Duration sparkSpacing;
    private final java.util.function.Supplier<Optional<ActiveCheckHistory.LastActiveCheck>> activeChecks;
    private volatile AgentState state;
    private long samples;

    public Agent(Sampler sampler, HealthTracker tracker, Optional<SlurmDrainPolicy> slurm, KernelLogFollower kernelLog,
                 Clock clock, Duration interval) {
        this(sampler, tracker, slurm, kernelLog, clock, interval, Optional::empty);
    }

    /** @param activeChecks the last scheduled active check, read each round ({@link ActiveCheckHistory#last}) */
    public Agent(Sampler sampler, HealthTracker tracker, Optional<SlurmDrainPolicy> slurm, KernelLogFollower kernelLog,
                 Clock clock, Duration interval,
                 java.util.function.Supplier<Optional<ActiveCheckHistory.LastActiveCheck>> activeChecks) {
        this.activeChecks = activeChecks;
        this.sampler = sampler;
        this.tracker = tracker;
        this.slurm = slurm;
        this.kernelLog = kernelLog;
        this.clock = clock;
        this.sparkSpacing = interval;
        this.state = AgentState.starting(sampler.node(), clock.now(),
                slurm.map(SlurmDrainPolicy::status).orElse(SlurmStatus.disabled()));
    }

    public AgentState state() {
        return state;
    }

    /** One sampling round. Synchronized with {@link #clear}: both change the tracker. */
    public synchronized AgentState tick() {
        NodeSample sample = sampler.sample();
        samples++;
        List<ComponentHealth> components = tracker.update(sample.findings(), sample.at());
        HealthState health = tracker.nodeState();
        SlurmStatus slurmStatus = slurm.map(p -> p.apply(health, tracker.worst(), sample.at()))
                .orElse(SlurmStatus.disabled());
        record(sample);
        state = new AgentState(sampler.node(), samples, Optional.of(sample), components, health,
                points(temperatures), points(errors), slurmStatus, state.startedAt(), activeChecks.get());
        return state;
    }

    /**
     * An operator's clear: forget the held health of a component ("all" for every one) and acknowledge the Xid
     * events seen so far, so the next sample judges afresh. Returns how many components were cleared.
     */
    public synchronized int clear(String component) {
        return clearing(component).cleared();
    }

    /** What a clear did: the components cleared, and why it will not survive a restart when it will not. */
    public record Cleared(int cleared, Optional<String> notKept) {}

    /**
     * As {@link #clear}, also saying whether the kernel-log part was written to the state file. Detector windows
     * start again too: a counter's errors before the clear no longer count toward its hourly limit.
     */
    public synchronized Cleared clearing(String component) {
        Optional<String> notKept = Optional.empty();
        if (component.equals("all") || component.startsWith("GPU")) notKept = kernelLog.clear();
        sampler.clear(component);
        return new Cleared(tracker.clear(component), notKept);
    }

    /** True for "all" and for a component the agent has judged. */
    public boolean knows(String component) {
        return component.equals("all") || state.components().stream().anyMatch(c -> c.component().equals(component));
    }

    /** The components judged so far, by name, for an operator who named none of them. */
    public List<String> componentNames() {
        return state.components().stream().map(ComponentHealth::component).sorted().toList();
    }

    /**
     * Everything the agent keeps between samples, counted in entries and points: sparkline series, the health
     * tracker, the detectors and the kernel-log events. It must level off however long the agent runs.
     */
    synchronized int held() {
        int series = temperatures.size() + errors.size();
        for (TimeSeries t : temperatures.values()) series += t.size();
        for (TimeSeries t : errors.values()) series += t.size();
        return series + tracker.held() + sampler.detectorsHeld() + kernelLog.held();
    }

    private void record(NodeSample sample) {
        Instant at = sample.at();
        for (Gpu g : sample.inventory().gpu().gpus()) {
            if (g.temperatureC() instanceof Reading.Present<Integer>(Integer t)) {
                series(temperatures, "GPU" + g.index()).add(at, t);
            }
        }
        for (var d : sample.inventory().rdmaDevices()) {
            for (RdmaPort p : d.ports()) {
                long sum = 0;
                for (String c : RdmaCountersRule.ERRORS) sum += p.counter(c).orElse(0L);
                series(errors, p.ref()).add(at, sum);
            }
        }
    }

    private TimeSeries series(Map<String, TimeSeries> m, String key) {
        return m.computeIfAbsent(key, k -> new TimeSeries(SPARK_POINTS, sparkSpacing));
    }

    private static Map<String, List<TimeSeries.Point>> points(Map<String, TimeSeries> m) {
        Map<String, List<TimeSeries.Point>> out = new LinkedHashMap<>();
        m.forEach((k, v) -> out.put(k, v.points()));
        return out;
    }
}
