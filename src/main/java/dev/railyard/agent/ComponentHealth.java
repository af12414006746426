package dev.railyard.agent;

import java.time.Instant;

/**
 * The health of one component (a GPU, an RDMA port, a netdev, or the host itself): its state, the finding that set
 * it ({@code checkId}, {@code reason}), the command that fixes it, and since when it has been in this state.
 */
public record ComponentHealth(String component, ComponentKind kind, HealthState state, String checkId, String reason,
                              String action, Instant since) {
}
