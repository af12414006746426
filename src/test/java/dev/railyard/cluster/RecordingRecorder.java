package dev.railyard.cluster;

import dev.railyard.model.Finding;
import dev.railyard.model.NodeOutcome;
import dev.railyard.model.PairResult;
import dev.railyard.model.Severity;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Keeps what validate records, to see that results arrive as they complete. */
class RecordingRecorder implements RunRecorder {
    final List<RunHeader> started = new CopyOnWriteArrayList<>();
    final List<NodeOutcome> nodes = new CopyOnWriteArrayList<>();
    final List<PairResult> pairs = new CopyOnWriteArrayList<>();
    final List<String> findingScopes = new CopyOnWriteArrayList<>();
    final List<Severity> finished = new CopyOnWriteArrayList<>();
    volatile boolean closed;

    @Override public void runStarted(RunHeader header) { started.add(header); }
    @Override public void nodeFinished(String runId, NodeOutcome outcome) { nodes.add(outcome); }
    @Override public void pairMeasured(String runId, PairResult result) { pairs.add(result); }
    @Override public void findingsAdded(String runId, String scope, List<Finding> findings) { findingScopes.add(scope); }
    @Override public void runFinished(String runId, Instant finishedAt, Severity verdict) { finished.add(verdict); }
    @Override public void close() { closed = true; }
}
