package dev.railyard.cluster;

import java.time.Duration;
import java.util.List;

/**
 * One remote step as it ended: what ran where, how it ended, and what it printed. {@code detail} says why for
 * anything but EXITED, in words for the report ("ssh: connect to host 10.0.0.3 port 22: Connection refused").
 */
public record StepResult(String node, List<String> args, StepStatus status, int exitCode, String stdout,
                         String stderr, Duration elapsed, String detail) {

    public StepResult {
        args = List.copyOf(args);
    }

    /** Ran to the end with exit 0 (ok) or 1 (a FAIL finding): its output is a result to read. */
    public boolean completed() {
        return status == StepStatus.EXITED && (exitCode == 0 || exitCode == 1);
    }
}
