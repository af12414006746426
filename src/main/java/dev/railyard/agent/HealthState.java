package dev.railyard.agent;

import dev.railyard.model.CheckId;
import dev.railyard.model.Finding;
import dev.railyard.model.Severity;

/** A component's health, worst last. UNHEALTHY drains the node in Slurm; DEGRADED is shown and alerted, not acted on. */
public enum HealthState {
    HEALTHY, DEGRADED, UNHEALTHY;

    /**
     * FAIL is unhealthy; WARN degraded; UNKNOWN degraded too, since a reading the agent cannot judge is no promise
     * of health.
     */
    /**
     * A finding's health: advice (host.net.buffers, host.cpu.governor: tuning defaults) leaves its component healthy
     * whatever its severity, so a node before tuning does not read DEGRADED forever; the advice stays listed.
     */
    public static HealthState of(Finding finding) {
        return CheckId.isAdvice(finding.id()) ? HEALTHY : of(finding.severity());
    }

    public static HealthState of(Severity severity) {
        return switch (severity) {
            case PASS, INFO -> HEALTHY;
            case UNKNOWN, WARN -> DEGRADED;
            case FAIL -> UNHEALTHY;
        };
    }

    public boolean worseThan(HealthState other) {
        return ordinal() > other.ordinal();
    }

    public HealthState max(HealthState other) {
        return worseThan(other) ? this : other;
    }
}
