package dev.railyard.agent;

import dev.railyard.model.CheckId;
import dev.railyard.model.Finding;
import dev.railyard.model.NetInterface;
import dev.railyard.model.NodeInventory;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * net.carrier by rate: carrier changes on a physical NIC within the flap window. One change is a link that went down
 * or came up (DEGRADED); {@code failChanges} or more in the window is a flapping link (UNHEALTHY: jobs on it stall).
 */
public final class LinkFlapDetector implements Detector {

    public static final String ID = CheckId.NET_CARRIER.id();

    private final Duration window;
    private final int failChanges;
    private final Map<String, TimeSeries> series = new HashMap<>();

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
        for (NetInterface nd : sample.interfaces()) {
            if (!nd.pciAddress().isPresent()) continue; // loopback, bridges, veths: not cabling
            String expected = "< " + failChanges + " carrier changes in " + window.toMinutes() + " min";
            if (!(nd.carrierChanges() instanceof Reading.Present<Long>(Long changes))) {
                out.add(Finding.unknown(ID, nd.name(), nd.carrierChanges(), expected));
                continue;
            }
            TimeSeries ts = series.computeIfAbsent(nd.name(), k -> new TimeSeries(256, Duration.ofSeconds(5)));
            if (ts.newest().map(p -> changes < p.value()).orElse(false)) ts = fresh(nd.name());
            ts.add(now, changes);
            long inWindow = (long) (changes - ts.oldestSince(now.minus(window)).orElseThrow().value());
            String observed = inWindow + " carrier changes in the last " + window.toMinutes() + " min (" + changes
                    + " since boot)";
            if (inWindow >= failChanges) {
                out.add(Finding.of(ID, Severity.FAIL, nd.name(), observed, expected,
                        DetectorFixes.netdevLink(nd.name(), "the link flaps", true)));
            } else if (inWindow > 0) {
                out.add(Finding.of(ID, Severity.WARN, nd.name(), observed, expected,
                        DetectorFixes.netdevLink(nd.name(), "the link went down or came up", false)));
            }
            else out.add(Finding.pass(ID, nd.name(), observed, expected));
        }
        return out;
    }

    @Override
    public void clear(String component) {
        series.keySet().removeIf(k -> component.equals("all") || k.equals(component));
    }

    @Override
    public int held() {
        return series.size() + series.values().stream().mapToInt(TimeSeries::size).sum();
    }

    private TimeSeries fresh(String name) {
        TimeSeries ts = new TimeSeries(256, Duration.ofSeconds(5));
        series.put(name, ts);
        return ts;
    }
}
