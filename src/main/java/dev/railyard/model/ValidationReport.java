package dev.railyard.model;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Everything one validate run found: per node, across the cluster, per pair, who is to blame, and the benchmarks
 * (NCCL, storage, GPU copies) with their curves against message size and their numbers. {@code complete} is false for a run that was interrupted or is still going; what was
 * measured is kept either way. The JSON form of this record (report.json) is documented in docs/validate-report.md.
 */
public record ValidationReport(
        int schemaVersion,
        String runId,
        String cluster,
        String launcher,
        Instant startedAt,
        Optional<Instant> finishedAt,
        boolean complete,
        int rounds,
        List<NodeOutcome> nodes,
        List<Finding> clusterFindings,
        List<PairResult> pairs,
        List<Finding> pairFindings,
        List<Culprit> culprits,
        List<Finding> benchFindings,
        List<SizeCurve> curves,
        List<Measurement> measurements) {

    /** 2: report.json's pairs[] may hold only the pairs that are not fine, pairsFile naming the file with them all. */
    public static final int SCHEMA_VERSION = 2;

    public ValidationReport {
        nodes = List.copyOf(nodes);
        clusterFindings = List.copyOf(clusterFindings);
        pairs = List.copyOf(pairs);
        pairFindings = List.copyOf(pairFindings);
        culprits = List.copyOf(culprits);
        benchFindings = List.copyOf(benchFindings);
        curves = List.copyOf(curves);
        measurements = List.copyOf(measurements);
    }

    /** A run that measured nothing outside its findings, curves and pairs. */
    public ValidationReport(int schemaVersion, String runId, String cluster, String launcher, Instant startedAt,
                            Optional<Instant> finishedAt, boolean complete, int rounds, List<NodeOutcome> nodes,
                            List<Finding> clusterFindings, List<PairResult> pairs, List<Finding> pairFindings,
                            List<Culprit> culprits, List<Finding> benchFindings, List<SizeCurve> curves) {
        this(schemaVersion, runId, cluster, launcher, startedAt, finishedAt, complete, rounds, nodes, clusterFindings,
                pairs, pairFindings, culprits, benchFindings, curves, List.of());
    }

    /** Every finding of the run: node, cluster, pair and bench. */
    public List<Finding> allFindings() {
        return Stream.of(nodes.stream().flatMap(n -> n.findings().stream()), clusterFindings.stream(),
                pairFindings.stream(), benchFindings.stream()).flatMap(s -> s).toList();
    }

    /**
     * The run's verdict: the worst finding; UNKNOWN at best when a node was not completed or the run is incomplete,
     * since what was not measured cannot pass.
     */
    public Severity severity() {
        Severity worst = allFindings().stream().map(Finding::severity).reduce(Severity.PASS, Severity::max);
        boolean partial = !complete || nodes.stream().anyMatch(n -> n.status() != NodeStatus.COMPLETED);
        return partial ? worst.max(Severity.UNKNOWN) : worst;
    }
}
