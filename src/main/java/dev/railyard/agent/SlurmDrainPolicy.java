package dev.railyard.agent;

import java.time.Instant;
import java.util.Optional;

/**
 * Drains the node when it is unhealthy and resumes it when it is no longer unhealthy (past the hold-down), touching only drains Railyard made:
 * an admin's drain or down, with its reason, is never overwritten or cleared. Slurm is asked only when an action may
 * be due (unhealthy, or a Railyard drain may be in place), not every second.
 */
public final class SlurmDrainPolicy {

    private final SlurmControl slurm;
    private final String slurmNode;
    private SlurmStatus status;
    /** True until Slurm has been asked once: a drain from before a restart of the agent must still be resumed. */
    private boolean maybeOurs = true;

    public SlurmDrainPolicy(SlurmControl slurm, String slurmNode) {
        this.slurm = slurm;
        this.slurmNode = slurmNode;
        this.status = new SlurmStatus(true, slurmNode, Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty());
    }

    public SlurmStatus status() {
        return status;
    }

    /** One decision after a sample. */
    public SlurmStatus apply(HealthState health, Optional<ComponentHealth> worst, Instant now) {
        boolean unhealthy = health == HealthState.UNHEALTHY;
        // drained only when unhealthy, so resumed once it no longer is (the tracker's hold-down already passed):
        // a degraded node (a warning, a reading it cannot judge) serves jobs as before
        boolean healthy = !unhealthy;
        if (!unhealthy && !(healthy && maybeOurs)) return status;
        SlurmControl.Outcome shown = slurm.show(slurmNode);
        if (shown.node().isEmpty()) {
            status = with(status.lastState(), status.lastReason(), status.lastAction(), status.lastActionAt(), shown.error());
            return status;
        }
        SlurmNode n = shown.node().get();
        Optional<String> state = Optional.of(String.join("+", n.stateFlags().stream().sorted().toList()));
        if (unhealthy && !n.drainedOrDraining() && !n.down()) {
            String reason = worst.map(c -> SlurmNode.REASON_PREFIX + " " + c.component() + " " + c.reason()).orElse(SlurmNode.REASON_PREFIX + " unhealthy");
            SlurmControl.Outcome done = slurm.drain(slurmNode, reason);
            maybeOurs = done.error().isEmpty();
            status = with(state, Optional.of(reason), Optional.of(done.error().isEmpty() ? "drained" : "drain failed"),
                    Optional.of(now), done.error());
        } else if (healthy && n.drainedByRailyard()) {
            SlurmControl.Outcome done = slurm.resume(slurmNode);
            maybeOurs = !done.error().isEmpty();
            status = with(state, n.reason(), Optional.of(done.error().isEmpty() ? "resumed" : "resume failed"),
                    Optional.of(now), done.error());
        } else {
            // an admin's drain, a drain already ours, or nothing to undo
            maybeOurs = n.drainedByRailyard();
            status = with(state, n.reason(), status.lastAction(), status.lastActionAt(), Optional.empty());
        }
        return status;
    }

    private SlurmStatus with(Optional<String> state, Optional<String> reason, Optional<String> action,
                             Optional<Instant> at, Optional<String> error) {
        return new SlurmStatus(true, slurmNode, state, reason, action, at, error);
    }
}
