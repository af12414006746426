package dev.railyard.agent;

import dev.railyard.model.CheckId;
import dev.railyard.model.Finding;
import dev.railyard.model.NodeInventory;
import dev.railyard.model.RdmaPort;
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
 * rdma.counters, judged by rate instead of "non-zero since boot": an error counter that rose in the last sample is
 * DEGRADED; one that rose by {@code failPerHour} or more within the hour window is UNHEALTHY. A counter that went
 * down was cleared (perfquery -R) and starts over.
 */
public final class CounterRateDetector implements Detector {

    public static final String ID = CheckId.RDMA_COUNTERS.id();
    /** The window the per-hour rate is taken over. */
    public static final Duration HOUR_WINDOW = Duration.ofHours(1);
    static final List<String> ERRORS = List.of("symbol_error", "link_downed", "link_error_recovery",
            "port_rcv_errors", "port_rcv_remote_physical_errors", "port_xmit_discards", "local_link_integrity_errors",
            "excessive_buffer_overrun_errors", "port_rcv_constraint_errors", "port_xmit_constraint_errors");

    private final long failPerHour;
    private final Map<String, TimeSeries> series = new HashMap<>();

    public CounterRateDetector(long failPerHour) {
        this.failPerHour = failPerHour;
    }

    @Override
    public Set<String> supersedes() {
        return Set.of(ID);
    }

    @Override
    public List<Finding> observe(NodeInventory sample, Instant now) {
        List<Finding> out = new ArrayList<>();
        for (var device : sample.rdmaDevices()) {
            for (RdmaPort p : device.ports()) out.add(judge(p, now));
        }
        return out;
    }

    private Finding judge(RdmaPort p, Instant now) {
        List<String> rising = new ArrayList<>();
        List<String> failing = new ArrayList<>();
        List<String> unreadable = new ArrayList<>();
        int read = 0;
        for (String name : ERRORS) {
            Reading<Long> r = p.counter(name);
            if (!(r instanceof Reading.Present<Long>(Long value))) {
                unreadable.add(name + " (" + r.describe() + ")");
                continue;
            }
            read++;
            TimeSeries ts = series.computeIfAbsent(p.ref() + "/" + name, k -> new TimeSeries(400, Duration.ofSeconds(10)));
            double previous = ts.newest().map(TimeSeries.Point::value).orElse((double) value);
            if (value < previous) ts = reset(p.ref() + "/" + name);
            ts.add(now, value);
            double lastStep = value - previous;
            double hour = value - ts.oldestSince(now.minus(HOUR_WINDOW)).orElseThrow().value();
            if (lastStep > 0) rising.add(name + " +" + (long) lastStep + " (" + (long) hour + " in the last hour)");
            if (hour >= failPerHour) failing.add(name);
        }
        String expected = "error counters not rising (< " + failPerHour + " per hour)";
        if (read == 0) {
            // i40iw and VFs print "N/A (no PMA)": there is nothing to judge, and that must show
            return Finding.unknown(ID, p.ref(), p.counter(ERRORS.getFirst()), expected);
        }
        String notRead = unreadable.isEmpty() ? "" : "; could not read " + String.join(", ", unreadable);
        if (!failing.isEmpty()) {
            return Finding.of(ID, Severity.FAIL, p.ref(), String.join(", ", rising.isEmpty() ? failing : rising)
                    + notRead, expected, DetectorFixes.rdmaPort(p.device(), p.port(), "error counters rising", true));
        }
        if (!rising.isEmpty()) {
            return Finding.of(ID, Severity.WARN, p.ref(), String.join(", ", rising) + notRead, expected,
                    DetectorFixes.rdmaPort(p.device(), p.port(), "error counters rising", false));
        }
        if (!unreadable.isEmpty()) {
            return Finding.of(ID, Severity.UNKNOWN, p.ref(), read + " counters not rising" + notRead, expected, "");
        }
        return Finding.pass(ID, p.ref(), read + " error counters not rising", expected);
    }

    @Override
    public void clear(String component) {
        series.keySet().removeIf(k -> component.equals("all") || k.startsWith(component + "/"));
    }

    @Override
    public int held() {
        return series.size() + series.values().stream().mapToInt(TimeSeries::size).sum();
    }

    private TimeSeries reset(String key) {
        TimeSeries fresh = new TimeSeries(400, Duration.ofSeconds(10));
        series.put(key, fresh);
        return fresh;
    }
}
