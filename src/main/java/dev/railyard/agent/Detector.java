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

    /**
     * An operator cleared {@code component} ("all" for every one): forget its history, so the window starts again
     * from the next sample instead of judging the errors already acknowledged.
     */
    default void clear(String component) {
    }

    /** Entries and points this detector keeps between samples; the bounded-memory tests watch it not grow. */
    default int held() {
        return 0;
    }
}
