package dev.railyard.store;

import dev.railyard.cluster.RunHeader;
import dev.railyard.cluster.RunRecorder;
import dev.railyard.model.NodeOutcome;
import dev.railyard.model.NodeStatus;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The child JVM of {@link HistoryKillTest}: records a run the way validate does and prints "recorded N" after each
 * committed pair, until it is killed. It stops by itself when its parent is gone, so it can never be left behind.
 */
public final class HistoryRecordingChild {

    private HistoryRecordingChild() {
    }

    public static void main(String[] args) {
        Path db = Path.of(args[0]);
        String runId = args[1];
        Instant t0 = Instant.parse("2026-11-23T01:30:00Z");
        ProcessHandle parent = ProcessHandle.current().parent().orElseThrow();
        RunRecorder rec = History.open(db);
        rec.runStarted(new RunHeader(runId, "killed-lab", "ssh", List.of("a", "b"), List.of("railyard", "validate"), t0));
        rec.nodeFinished(runId, new NodeOutcome("a", NodeStatus.COMPLETED, "", List.of(), Optional.empty()));
        for (int i = 1; i <= 1_000_000 && parent.isAlive(); i++) {
            rec.pairMeasured(runId, SqliteHistoryTest.pair("a", "b", i, 36.0 + i % 10, t0.plusSeconds(i)));
            System.out.println("recorded " + i);
            System.out.flush();
        }
        rec.close();
    }
}
