package dev.railyard.cluster;

import dev.railyard.model.Culprit;
import dev.railyard.model.Finding;
import dev.railyard.model.Measurement;
import dev.railyard.model.NodeOutcome;
import dev.railyard.model.PairResult;
import dev.railyard.model.Severity;
import dev.railyard.model.SizeCurve;

import java.time.Instant;
import java.util.List;

/**
 * Where validate writes each result the moment it has it, so a run killed half-way keeps everything measured
 * (store.SqliteHistory is the real one). Calls come from several threads.
 */
public interface RunRecorder extends AutoCloseable {

    void runStarted(RunHeader header);

    void nodeFinished(String runId, NodeOutcome outcome);

    void pairMeasured(String runId, PairResult result);

    /** Findings that belong to the cluster or a benchmark rather than one node ("cluster", "pairs", "bench"). */
    void findingsAdded(String runId, String scope, List<Finding> findings);

    /** The culprits localisation named, once the pairs are judged (history keeps them for compare and show). */
    default void culpritsFound(String runId, List<Culprit> culprits) {
    }

    /** One size sweep (NCCL busbw per size, an RDMA sweep) as it completes. */
    default void curveMeasured(String runId, SizeCurve curve) {
    }

    /** The node benchmarks' numbers (loopback TCP, GPU copies, NCCL busbw, storage), for compare. */
    default void measured(String runId, List<Measurement> measurements) {
    }

    void runFinished(String runId, Instant finishedAt, Severity verdict);

    @Override
    void close();

    /** Records nothing (--no-history). */
    static RunRecorder none() {
        return new RunRecorder() {
            @Override public void runStarted(RunHeader header) { }
            @Override public void nodeFinished(String runId, NodeOutcome outcome) { }
            @Override public void pairMeasured(String runId, PairResult result) { }
            @Override public void findingsAdded(String runId, String scope, List<Finding> findings) { }
            @Override public void runFinished(String runId, Instant finishedAt, Severity verdict) { }
            @Override public void close() { }
        };
    }
}
