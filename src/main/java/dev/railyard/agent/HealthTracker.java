package dev.railyard.agent;

import dev.railyard.model.Finding;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Turns each sample's findings into per-component health with a hold-down: a component gets worse at once, but gets
 * better only after its findings have been better for the whole hold-down time (so a flapping link does not drain
 * and resume a node every few seconds), or when an operator clears it. Not thread-safe: the agent's sampling thread
 * owns it and publishes immutable results.
 */
public final class HealthTracker {

    private final String node;
    private final Duration holdDown;
    private final Map<String, ComponentHealth> current = new LinkedHashMap<>();
    /** When a component's findings first became better than its held state; absent while they are not. */
    private final Map<String, Instant> betterSince = new HashMap<>();

    public HealthTracker(String node, Duration holdDown) {
        this.node = node;
        this.holdDown = holdDown;
    }

    /** Folds one sample's findings in and returns every component's health, worst first. */
    public List<ComponentHealth> update(List<Finding> findings, Instant now) {
        Map<String, ComponentHealth> raw = worstPerComponent(findings, now);
        for (ComponentHealth r : raw.values()) {
            ComponentHealth held = current.get(r.component());
            if (held == null || r.state().worseThan(held.state())) {
                current.put(r.component(), r);
                betterSince.remove(r.component());
            } else if (held.state().worseThan(r.state())) {
                Instant since = betterSince.computeIfAbsent(r.component(), k -> now);
                if (!now.isBefore(since.plus(holdDown))) {
                    current.put(r.component(), r);
                    betterSince.remove(r.component());
                }
            } else {
                // same state: keep since, take the newest reason (counts and temperatures move)
                current.put(r.component(), new ComponentHealth(r.component(), r.kind(), r.state(), r.checkId(),
                        r.reason(), r.action(), held.since()));
                betterSince.remove(r.component());
            }
        }
        // a component whose findings disappeared keeps its last state: absence is no cure. A GPU whose address is
        // judged under another name now was renumbered (another GPU vanished before it): its old row is dropped
        Set<String> gpusNow = new HashSet<>();
        raw.values().forEach(r -> gpuAddress(r.component()).ifPresent(gpusNow::add));
        List<String> renamed = current.keySet().stream()
                .filter(name -> !raw.containsKey(name) && gpuAddress(name).filter(gpusNow::contains).isPresent()).toList();
        renamed.forEach(name -> {
            current.remove(name);
            betterSince.remove(name);
        });
        return snapshot();
    }

    /** "GPU3 (0000:3B:00.0)" → "0000:3b:00.0"; empty for anything not named as a GPU. */
    private static Optional<String> gpuAddress(String component) {
        int open = component.indexOf(" (");
        if (!component.startsWith("GPU") || open < 0 || !component.endsWith(")")) return Optional.empty();
        return Optional.of(component.substring(open + 2, component.length() - 1).toLowerCase(java.util.Locale.ROOT));
    }

    /** Operator override: forget the held state of one component (or all with "all") so the next sample decides. */
    public int clear(String component) {
        List<String> names = component.equals("all") ? new ArrayList<>(current.keySet())
                : current.containsKey(component) ? List.of(component) : List.of();
        names.forEach(n -> {
            current.remove(n);
            betterSince.remove(n);
        });
        return names.size();
    }

    public List<ComponentHealth> snapshot() {
        return current.values().stream()
                .sorted(Comparator.comparing(ComponentHealth::state, Comparator.reverseOrder())
                        .thenComparing(ComponentHealth::component))
                .toList();
    }

    /** The node's health: its worst component, or HEALTHY when nothing was judged yet. */
    public HealthState nodeState() {
        return current.values().stream().map(ComponentHealth::state).reduce(HealthState.HEALTHY, HealthState::max);
    }

    /** Components and pending recoveries kept; bounded by the node's components, watched by the memory tests. */
    int held() {
        return current.size() + betterSince.size();
    }

    /** The worst component, for a drain reason. */
    public Optional<ComponentHealth> worst() {
        return snapshot().stream().findFirst();
    }

    private Map<String, ComponentHealth> worstPerComponent(List<Finding> findings, Instant now) {
        Map<String, ComponentHealth> out = new LinkedHashMap<>();
        for (Finding f : findings) {
            HealthState s = HealthState.of(f);
            ComponentHealth prev = out.get(f.subject());
            if (prev == null || s.worseThan(prev.state())) {
                String reason = f.id() + ": " + f.observed() + (f.expected().isEmpty() ? "" : " (expected " + f.expected() + ")");
                out.put(f.subject(), new ComponentHealth(f.subject(), ComponentKind.ofSubject(f.subject(), node), s,
                        f.id(), reason, f.remediation(), now));
            }
        }
        return out;
    }
}
