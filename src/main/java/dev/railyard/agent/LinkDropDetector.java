package dev.railyard.agent;

import dev.railyard.check.rules.RdmaPortStateRule;
import dev.railyard.check.rules.Verdict;
import dev.railyard.model.CheckId;
import dev.railyard.model.Finding;
import dev.railyard.model.NodeInventory;
import dev.railyard.model.RdmaPort;
import dev.railyard.model.Reading;
import dev.railyard.model.Unlisted;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * rdma.port.state for ports that were ACTIVE while the agent watched and then left it, judged by
 * {@link RdmaPortStateRule} from how long each has been out of ACTIVE: DEGRADED at once (it may come back), UNHEALTHY
 * once down for the {@code dropWindow}. Ports never seen ACTIVE are the snapshot check's business
 * (an uncabled spare port is not a drop).
 *
 * <p>Each drop seen between two samples (ACTIVE, then not) is counted too: {@code flapDrops} of them within the
 * {@code flapWindow} is a flapping port, UNHEALTHY even when every drop was shorter than the drop window and neither
 * link_downed nor the kernel log moved (a port that retrains fast, or a driver that does not count it).
 */
public final class LinkDropDetector implements Detector {

    public static final String ID = CheckId.RDMA_PORT_STATE.id();

    private final Duration dropWindow;
    private final Set<String> seenActive = new HashSet<>();
    private final Map<String, Instant> downSince = new HashMap<>();
    private final Duration flapWindow;
    private final int flapDrops;
    /** When each port was seen leaving ACTIVE, within the flap window; at most {@code flapDrops} kept. */
    private final Map<String, Deque<Instant>> drops = new HashMap<>();

    public LinkDropDetector(Duration dropWindow) {
        this(dropWindow, Duration.ofMinutes(10), 6);
    }

    public LinkDropDetector(Duration dropWindow, Duration flapWindow, int flapDrops) {
        if (flapDrops < 1) throw new IllegalArgumentException("flapDrops < 1");
        this.dropWindow = dropWindow;
        this.flapWindow = flapWindow;
        this.flapDrops = flapDrops;
    }

    @Override
    public List<Finding> observe(NodeInventory sample, Instant now) {
        List<Finding> out = new ArrayList<>();
        var unlisted = sample.unlisted(Unlisted.Subsystem.INFINIBAND);
        if (unlisted.isPresent()) {
            // the ports watched so far are not gone: nothing under sys/class/infiniband could be seen this time
            Reading<String> why = Reading.failed(unlisted.get().path(), unlisted.get().cause());
            for (String ref : seenActive.stream().sorted().toList()) {
                out.add(Finding.unknown(ID, ref, why, RdmaPortStateRule.EXPECTED));
            }
            return out;
        }
        Set<String> present = new HashSet<>();
        for (var device : sample.rdmaDevices()) {
            for (RdmaPort p : device.ports()) present.add(p.ref());
        }
        for (String ref : seenActive.stream().sorted().toList()) {
            if (present.contains(ref)) continue;
            // seen ACTIVE, now not listed at all: the device fell off the bus or its driver went away
            int colon = ref.lastIndexOf(':');
            String device = ref.substring(0, colon);
            int port = Integer.parseInt(ref.substring(colon + 1));
            out.add(DetectorFixes.withDrain(RdmaPortStateRule.gone(device, port), device + " port " + port + ": the port is gone")
                    .on(ref));
        }
        for (var device : sample.rdmaDevices()) {
            for (RdmaPort p : device.ports()) {
                boolean active = RdmaPortStateRule.active(p);
                boolean wasActive = seenActive.contains(p.ref()) && !downSince.containsKey(p.ref());
                int dropped = dropsWithin(p.ref(), now, wasActive && !active && p.state().isPresent());
                if (active) {
                    seenActive.add(p.ref());
                    downSince.remove(p.ref());
                    // fewer drops than a flap: each was judged as a drop while it lasted
                    if (dropped >= flapDrops) out.add(flapping(p, dropped));
                    continue;
                }
                if (!seenActive.contains(p.ref())) continue;
                if (dropped >= flapDrops) {
                    downSince.putIfAbsent(p.ref(), now);
                    out.add(flapping(p, dropped));
                    continue;
                }
                Instant since = downSince.computeIfAbsent(p.ref(), k -> now);
                Verdict v = RdmaPortStateRule.dropped(p, Duration.between(since, now), dropWindow);
                out.add(DetectorFixes.withDrain(v, p.device() + " port " + p.port() + ": "
                        + (RdmaPortStateRule.noSubnetManager(p) ? "no subnet manager" : "the port left ACTIVE")).on(p.ref()));
            }
        }
        return out;
    }

    /** Records a drop seen now when {@code dropNow}, forgets the ones past the window; the count left. */
    private int dropsWithin(String ref, Instant now, boolean dropNow) {
        Deque<Instant> seen = drops.get(ref);
        if (seen == null && !dropNow) return 0;
        if (seen == null) drops.put(ref, seen = new ArrayDeque<>());
        if (dropNow) seen.addLast(now);
        while (!seen.isEmpty() && (seen.size() > flapDrops || seen.peekFirst().isBefore(now.minus(flapWindow)))) {
            seen.removeFirst();
        }
        if (seen.isEmpty()) drops.remove(ref);
        return seen.size();
    }

    private Finding flapping(RdmaPort p, int dropped) {
        Verdict v = RdmaPortStateRule.flapping(p, dropped, flapDrops, flapWindow);
        return DetectorFixes.withDrain(v, p.device() + " port " + p.port() + ": the port flaps").on(p.ref());
    }

    @Override
    public void clear(String component) {
        drops.keySet().removeIf(k -> component.equals("all") || k.equals(component));
    }

    @Override
    public int held() {
        return seenActive.size() + downSince.size() + drops.values().stream().mapToInt(Deque::size).sum();
    }
}
