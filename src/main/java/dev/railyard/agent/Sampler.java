package dev.railyard.agent;

import dev.railyard.check.CheckInput;
import dev.railyard.check.CheckRunner;
import dev.railyard.collect.InventoryCollector;
import dev.railyard.collect.SourceReads;
import dev.railyard.model.ClusterSpec;
import dev.railyard.model.Finding;
import dev.railyard.model.NodeInventory;
import dev.railyard.platform.Clock;
import dev.railyard.platform.HostRoot;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Reads the node and judges it: the same collectors and node checks as {@code railyard check} (one verdict path),
 * then the stateful detectors, whose rate-based findings replace the snapshot checks they supersede.
 */
public final class Sampler {

    private final HostRoot root;
    private final InventoryCollector collector;
    private final CheckRunner checks;
    private final List<Detector> detectors;
    private final Optional<ClusterSpec> spec;
    private final String node;
    private final Clock clock;
    private final Optional<SourceReads> reads;

    public Sampler(HostRoot root, InventoryCollector collector, CheckRunner checks, List<Detector> detectors,
                   Optional<ClusterSpec> spec, String node, Clock clock) {
        this(root, collector, checks, detectors, spec, node, clock, Optional.empty());
    }

    /** With {@code reads}, every source is read within its own deadline (the agent); without, inline (tests, --once). */
    public Sampler(HostRoot root, InventoryCollector collector, CheckRunner checks, List<Detector> detectors,
                   Optional<ClusterSpec> spec, String node, Clock clock, Optional<SourceReads> reads) {
        this.reads = reads;
        this.root = root;
        this.collector = collector;
        this.checks = checks;
        this.detectors = List.copyOf(detectors);
        this.spec = spec;
        this.node = node;
        this.clock = clock;
    }

    public NodeSample sample() {
        long start = clock.nanoTime();
        List<SourceReads.Stuck> stuck = List.of();
        NodeInventory inventory;
        if (reads.isPresent()) {
            InventoryCollector.Sourced sourced = collector.collect(root, reads.get());
            inventory = sourced.inventory();
            stuck = sourced.stuck();
        } else {
            inventory = collector.collect(root);
        }
        Instant now = clock.now();
        Set<String> superseded = new HashSet<>();
        detectors.forEach(d -> superseded.addAll(d.supersedes()));
        List<Finding> findings = new ArrayList<>();
        for (Finding f : checks.run(new CheckInput(inventory, spec, node))) {
            if (!superseded.contains(f.id())) findings.add(f);
        }
        for (Detector d : detectors) findings.addAll(d.observe(inventory, now));
        if (!stuck.isEmpty()) findings = StuckSources.judge(findings, stuck, node);
        findings.sort(CheckRunner.WORST_FIRST);
        return new NodeSample(now, inventory, findings, Duration.ofNanos(clock.nanoTime() - start), stuck);
    }

    /** Forgets the detectors' history of {@code component} ("all": of every one). */
    void clear(String component) {
        detectors.forEach(d -> d.clear(component));
    }

    /** What the detectors keep between samples (see {@link Detector#held()}). */
    int detectorsHeld() {
        return detectors.stream().mapToInt(Detector::held).sum();
    }

    public String node() {
        return node;
    }
}
