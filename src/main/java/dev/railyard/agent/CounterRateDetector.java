package dev.railyard.agent;

import dev.railyard.check.rules.RdmaCountersRule;
import dev.railyard.check.rules.Verdict;
import dev.railyard.model.CheckId;
import dev.railyard.model.Finding;
import dev.railyard.model.NodeInventory;
import dev.railyard.model.RdmaPort;
import dev.railyard.model.Reading;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * rdma.counters, judged by rate instead of "non-zero since boot": the detector keeps each counter's history and
 * hands {@link RdmaCountersRule} how much it rose since the last sample and within the hour (rose: DEGRADED; rose by
 * {@code failPerHour} or more within the hour: UNHEALTHY). A counter that went
 * down was cleared (perfquery -R) and starts over.
 */
public final class CounterRateDetector implements Detector {

    public static final String ID = CheckId.RDMA_COUNTERS.id();
    /** The window the per-hour rate is taken over. */
    public static final Duration HOUR_WINDOW = RdmaCountersRule.HOUR;

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

    /** The time-window fact, how much each counter rose, judged by {@link RdmaCountersRule}. */
    private Finding judge(RdmaPort p, Instant now) {
        Map<String, RdmaCountersRule.Rise> rises = new HashMap<>();
        for (String name : RdmaCountersRule.ERRORS) {
            if (!(p.counter(name) instanceof Reading.Present<Long>(Long value))) continue;
            TimeSeries ts = series.computeIfAbsent(p.ref() + "/" + name, k -> new TimeSeries(400, Duration.ofSeconds(10)));
            double previous = ts.newest().map(TimeSeries.Point::value).orElse((double) value);
            if (value < previous) ts = reset(p.ref() + "/" + name);
            ts.add(now, value);
            double hour = value - ts.oldestSince(now.minus(HOUR_WINDOW)).orElseThrow().value();
            rises.put(name, new RdmaCountersRule.Rise((long) (value - previous), (long) hour));
        }
        Verdict v = RdmaCountersRule.rising(p, rises, failPerHour);
        return DetectorFixes.withDrain(v, p.device() + " port " + p.port() + ": error counters rising").on(p.ref());
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
