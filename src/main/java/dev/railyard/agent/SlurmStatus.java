package dev.railyard.agent;

import java.time.Instant;
import java.util.Optional;

/** The agent's view of its node in Slurm: whether it acts there, the state it last saw, and its last action. */
public record SlurmStatus(boolean enabled, String slurmNode, Optional<String> lastState, Optional<String> lastReason,
                          Optional<String> lastAction, Optional<Instant> lastActionAt, Optional<String> error) {

    public static SlurmStatus disabled() {
        return new SlurmStatus(false, "", Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty());
    }
}
