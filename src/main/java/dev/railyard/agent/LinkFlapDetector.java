package dev.railyard.agent;

import dev.railyard.check.rules.NetCarrierRule;
import dev.railyard.check.rules.Verdict;
import dev.railyard.model.CheckId;
import dev.railyard.model.Finding;
import dev.railyard.model.NetInterface;
import dev.railyard.model.NodeInventory;
import dev.railyard.model.Reading;
import dev.railyard.model.Unlisted;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * net.carrier by rate: carrier changes on a physical NIC within the flap window, judged by {@link NetCarrierRule}. One
 * change is a link that went down or came up (DEGRADED); {@code failChanges} or more in the window is a flapping link
 * (UNHEALTHY: jobs on it stall).
 *
 * <p>The changes counted are the kernel's carrier_changes, or the carrier transitions seen between samples where
 * those are more: a driver that does not count (or a counter reset under a link that kept flapping) hides nothing
 * the samples themselves saw.
 */
public final class LinkFlapDetector implements Detector {

    public static final String ID = CheckId.NET_CARRIER.id();

    private final Duration window;
    private final int failChanges;
    private final Map<String, TimeSeries> series = new HashMap<>();
    /** Per NIC since its series began: the kernel's count then, transitions seen, and the carrier last read. */
    private final Map<String, Seen> seen = new HashMap<>();

    private record Seen(long baseChanges, long lastChanges, long transitions, Boolean carrier) {}

    public LinkFlapDetector(Duration window, int failChanges) {
        this.window = window;
        this.failChanges = failChanges;
    }

    @Override
    public Set<String> supersedes() {
        return Set.of(ID);
    }

    @Override
    public List<Finding> observe(NodeInventory sample, Instant now) {
        List<Finding> out = new ArrayList<>();
        var unlisted = sample.unlisted(Unlisted.Subsystem.NET);
        if (unlisted.isPresent()) {
            // the NICs watched so far are not gone: nothing under sys/class/net could be seen this time
            Reading<Long> why = Reading.failed(unlisted.get().path(), unlisted.get().cause());
            for (String name : seen.keySet().stream().sorted().toList()) {
                out.add(NetCarrierRule.unread(why, failChanges, window).on(name));
            }
            return out;
        }
        for (NetInterface nd : sample.interfaces()) {
            if (!nd.pciAddress().isPresent()) continue; // loopback, bridges, veths: not cabling
            if (!(nd.carrierChanges() instanceof Reading.Present<Long>(Long changes))) {
                out.add(NetCarrierRule.unread(nd.carrierChanges(), failChanges, window).on(nd.name()));
                continue;
            }
            Seen was = seen.get(nd.name());
            Boolean carrier = carrierNow(nd);
            if (was == null || changes < was.lastChanges()) {
                // first sight, or the kernel's counter went back (driver reloaded): count from here
                was = new Seen(changes, changes, 0, carrier);
                fresh(nd.name());
            }
            boolean flipped = carrier != null && was.carrier() != null && !carrier.equals(was.carrier());
            Seen next = new Seen(was.baseChanges(), changes, was.transitions() + (flipped ? 1 : 0),
                    carrier != null ? carrier : was.carrier());
            seen.put(nd.name(), next);
            long kernelCounted = changes - next.baseChanges();
            long counted = Math.max(kernelCounted, next.transitions());
            TimeSeries ts = series.computeIfAbsent(nd.name(), k -> new TimeSeries(256, Duration.ofSeconds(5)));
            ts.add(now, counted);
            long inWindow = (long) (counted - ts.oldestSince(now.minus(window)).orElseThrow().value());
            String observed = inWindow + " carrier changes in the last " + window.toMinutes() + " min (" + changes
                    + " since boot" + (next.transitions() > kernelCounted
                    ? "; " + next.transitions() + " seen between samples, " + kernelCounted + " counted by the kernel" : "")
                    + ")";
            Verdict v = NetCarrierRule.drops(nd.name(), inWindow, observed, failChanges, window);
            out.add(DetectorFixes.withDrain(v, nd.name() + ": the link flaps").on(nd.name()));
        }
        return out;
    }

    /** The carrier now: down when the kernel refuses to say on a down interface; null when unreadable. */
    private static Boolean carrierNow(NetInterface nd) {
        return switch (nd.carrier()) {
            case Reading.Present<Boolean>(Boolean v) -> v;
            case Reading.Absent<Boolean> a -> false;
            case Reading.Failed<Boolean> f -> null;
        };
    }

    @Override
    public void clear(String component) {
        series.keySet().removeIf(k -> component.equals("all") || k.equals(component));
        seen.keySet().removeIf(k -> component.equals("all") || k.equals(component));
    }

    @Override
    public int held() {
        return series.size() + seen.size() + series.values().stream().mapToInt(TimeSeries::size).sum();
    }

    private TimeSeries fresh(String name) {
        TimeSeries ts = new TimeSeries(256, Duration.ofSeconds(5));
        series.put(name, ts);
        return ts;
    }
}
