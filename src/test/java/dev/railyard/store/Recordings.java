package dev.railyard.store;

import dev.railyard.cluster.RunHeader;
import dev.railyard.cluster.RunRecorder;
import dev.railyard.model.NodeOutcome;
import dev.railyard.model.PairResult;
import dev.railyard.model.SizeCurve;
import dev.railyard.model.ValidationReport;

import java.util.List;
import java.util.Optional;

/** Plays a finished report into a recorder in the order validate produces it, and what reading it back must give. */
public final class Recordings {

    private Recordings() {
    }

    public static void record(RunRecorder rec, ValidationReport r) {
        rec.runStarted(new RunHeader(r.runId(), r.cluster(), r.launcher(),
                r.nodes().stream().map(NodeOutcome::node).toList(), List.of("railyard", "validate", "--spec", "c.yaml"),
                r.startedAt()));
        r.nodes().forEach(n -> rec.nodeFinished(r.runId(), n));
        rec.findingsAdded(r.runId(), "cluster", r.clusterFindings());
        for (PairResult p : r.pairs()) rec.pairMeasured(r.runId(), p);
        rec.findingsAdded(r.runId(), "pairs", r.pairFindings());
        rec.culpritsFound(r.runId(), r.culprits());
        for (SizeCurve c : r.curves()) rec.curveMeasured(r.runId(), c);
        rec.findingsAdded(r.runId(), "bench", r.benchFindings());
        rec.measured(r.runId(), r.measurements());
        r.finishedAt().ifPresent(f -> rec.runFinished(r.runId(), f, r.severity()));
    }

    /** Node facts are stored for people but not read back. */
    public static ValidationReport withoutFacts(ValidationReport r) {
        return new ValidationReport(r.schemaVersion(), r.runId(), r.cluster(), r.launcher(), r.startedAt(),
                r.finishedAt(), r.complete(), r.rounds(),
                r.nodes().stream().map(n -> new NodeOutcome(n.node(), n.status(), n.detail(), n.findings(),
                        Optional.empty())).toList(),
                r.clusterFindings(), r.pairs(), r.pairFindings(), r.culprits(), r.benchFindings(), r.curves(), r.measurements());
    }
}
