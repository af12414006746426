package dev.railyard.agent;

import dev.railyard.bench.ibtools.LinkEvent;
import dev.railyard.check.rules.NetCarrierRule;
import dev.railyard.check.rules.RdmaPortStateRule;
import dev.railyard.check.rules.Verdict;
import dev.railyard.model.Finding;
import dev.railyard.model.NodeInventory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Link drops the kernel log tells of: mlx5 "enp157s0f1np1: Link down" (subject the netdev, check net.carrier) and
 * "mlx5_5: Port: 1 Link INIT" or any state but ACTIVE (subject the port, check rdma.port.state). A drop can come and
 * go between two samples, where sysfs shows nothing; the kernel log keeps it. The detector counts the drops within the
 * flap window; {@link NetCarrierRule} and {@link RdmaPortStateRule} judge the count (one DEGRADED, {@code failDrops}
 * or more UNHEALTHY); a link with none left in the window is judged healthy again.
 */
public final class KernelLinkEventDetector implements Detector {

    /** At most this many drop times are kept per link: enough to count up to failDrops, bounded however it flaps. */
    private static final int KEEP_PER_LINK = 64;

    private final KernelLogFollower log;
    private final Duration window;
    private final int failDrops;
    private final Map<Link, Deque<Instant>> drops = new LinkedHashMap<>();
    private long seen;

    public KernelLinkEventDetector(KernelLogFollower log, Duration window, int failDrops) {
        this.log = log;
        this.window = window;
        this.failDrops = failDrops;
    }

    @Override
    public List<Finding> observe(NodeInventory sample, Instant now) {
        KernelLogFollower.LinkEvents fresh = log.linkEventsAfter(seen);
        seen = fresh.seenInAll();
        for (LinkEvent e : fresh.events()) {
            Deque<Instant> times = drops.computeIfAbsent(new Link(e.device(), e.port()), k -> new ArrayDeque<>());
            if (isDrop(e)) {
                times.addLast(now); // the kernel's own time stamps may be boot-relative: the time it was seen counts
                if (times.size() > KEEP_PER_LINK) times.removeFirst();
            }
        }
        List<Finding> out = new ArrayList<>();
        Instant since = now.minus(window);
        drops.forEach((link, times) -> {
            while (!times.isEmpty() && times.peekFirst().isBefore(since)) times.removeFirst();
            String observed = times.size() + " link drop(s) in the kernel log in the last " + window.toMinutes() + " min";
            Verdict v = link.isPort()
                    ? RdmaPortStateRule.loggedDrops(link.device(), link.port(), times.size(), failDrops, window)
                    : NetCarrierRule.drops(link.device(), times.size(), observed, failDrops, window);
            out.add(DetectorFixes.withDrain(v, link.drainReason()).on(link.subject()));
        });
        return out;
    }

    @Override
    public void clear(String component) {
        drops.keySet().removeIf(l -> component.equals("all") || (l.device() + ":" + l.port()).equals(component)
                || l.device().equals(component));
    }

    @Override
    public int held() {
        return drops.size() + drops.values().stream().mapToInt(Deque::size).sum();
    }

    /** A netdev (port 0: carrier lines) or an RDMA device's port (port-state lines), as the kernel log names it. */
    private record Link(String device, int port) {

        boolean isPort() {
            return port != 0;
        }

        /** The netdev, or DEVICE:PORT as RdmaPort.ref() writes it. */
        String subject() {
            return isPort() ? device + ":" + port : device;
        }

        String drainReason() {
            return (isPort() ? device + " port " + port : device) + ": the link flaps";
        }
    }

    private static boolean isDrop(LinkEvent e) {
        return e.port() == 0 ? e.state().equalsIgnoreCase("down") : !e.state().equalsIgnoreCase("ACTIVE");
    }
}
