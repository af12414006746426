package dev.railyard.agent;

import dev.railyard.model.Finding;
import dev.railyard.model.NodeInventory;

import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * A stateful judgement over successive samples, with named time windows: what one snapshot cannot tell (a counter
 * rising, a link down for long, a link flapping, heat that lasts).
 */
public interface Detector {

    /** Folds one sample in and returns its findings for this moment. */
    List<Finding> observe(NodeInventory sample, Instant now);

    /** Snapshot check IDs this detector's findings replace in the agent (a counter "non-zero since boot"). */
    default Set<String> supersedes() {
        return Set.of();
    }

    /** Entries and points this detector keeps between samples; the bounded-memory tests watch it not grow. */
    default int held() {
        return 0;
    }
}
