package dev.railyard.agent;

import dev.railyard.check.Fix;
import dev.railyard.check.ShellWord;
import dev.railyard.model.CheckId;
import dev.railyard.model.Finding;
import dev.railyard.model.NodeInventory;
import dev.railyard.model.RdmaPort;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;

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
 * rdma.port.state for ports that were ACTIVE while the agent watched and then left it: DEGRADED at once (it may come
 * back), UNHEALTHY once down for the {@code dropWindow}. Ports never seen ACTIVE are the snapshot check's business
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
        for (var device : sample.rdmaDevices()) {
            for (RdmaPort p : device.ports()) {
                boolean active = p.state() instanceof Reading.Present<RdmaPort.PortState>(var s) && s.code() == RdmaPort.PortState.ACTIVE;
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
                Duration down = Duration.between(since, now);
                String observed = "was ACTIVE, now " + p.state().map(s -> s.code() + ": " + s.name()).describe()
                        + " for " + down.toSeconds() + " s";
                Severity severity = down.compareTo(dropWindow) >= 0 ? Severity.FAIL : Severity.WARN;
                out.add(Finding.of(ID, severity, p.ref(), observed, "ACTIVE (link drop window " + dropWindow.toSeconds() + " s)",
                        fix(p, severity == Severity.FAIL)));
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
        String observed = dropped + " drops from ACTIVE seen in the last "
                + flapWindow.toMinutes() + " min (now " + p.state().map(s -> s.code() + ": " + s.name()).describe() + ")";
        String expected = "< " + flapDrops + " drops from ACTIVE in " + flapWindow.toMinutes() + " min";
        return Finding.of(ID, Severity.FAIL, p.ref(), observed, expected,
                DetectorFixes.rdmaPort(p.device(), p.port(), "the port flaps", true));
    }

    @Override
    public void clear(String component) {
        drops.keySet().removeIf(k -> component.equals("all") || k.equals(component));
    }

    /** INIT on InfiniBand is a link that trained with no subnet manager to configure it; else the cable or peer. */
    private static String fix(RdmaPort p, boolean drain) {
        boolean init = p.isInfiniband() && p.state() instanceof Reading.Present<RdmaPort.PortState>(var s) && s.code() == RdmaPort.PortState.INIT;
        if (!init) return DetectorFixes.rdmaPort(p.device(), p.port(), "the port left ACTIVE", drain);
        List<String> lines = new ArrayList<>(List.of("rdma link show " + ShellWord.of(p.device() + "/" + p.port()),
                "command -v sminfo >/dev/null && sminfo"));
        if (drain) lines.add(DetectorFixes.drain(p.device() + " port " + p.port() + ": no subnet manager"));
        lines.add(Fix.note("the link is up but no subnet manager configured " + p.device() + " port " + p.port() + ":"));
        lines.add(Fix.START_SUBNET_MANAGER);
        return Fix.lines(lines.toArray(String[]::new));
    }

    @Override
    public int held() {
        return seenActive.size() + downSince.size() + drops.values().stream().mapToInt(Deque::size).sum();
    }
}
