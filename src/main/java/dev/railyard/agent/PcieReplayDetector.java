package dev.railyard.agent;

import dev.railyard.check.rules.GpuPcieLinkRule;
import dev.railyard.model.CheckId;
import dev.railyard.model.Finding;
import dev.railyard.model.Gpu;
import dev.railyard.model.NodeInventory;
import dev.railyard.model.Reading;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * gpu.pcie.link by the PCIe replay counter's rate: replays are retransmissions after link-level errors, and a count
 * that keeps rising within the hour points at a marginal riser, slot or cable before the link trains down. Rising
 * by {@code warnPerHour} or more in the window is DEGRADED; a counter that only ever held its boot value is not.
 */
public final class PcieReplayDetector implements Detector {

    public static final String ID = CheckId.GPU_PCIE_LINK.id();

    private final long warnPerHour;
    private final Map<String, TimeSeries> series = new HashMap<>();

    public PcieReplayDetector(long warnPerHour) {
        this.warnPerHour = warnPerHour;
    }

    @Override
    public List<Finding> observe(NodeInventory sample, Instant now) {
        List<Finding> out = new ArrayList<>();
        for (Gpu g : sample.gpu().gpus()) {
            if (!(g.pcieReplays() instanceof Reading.Present<Long>(Long replays))) continue;
            TimeSeries ts = series.computeIfAbsent(g.pciAddress(), k -> new TimeSeries(400, Duration.ofSeconds(10)));
            if (ts.newest().map(p -> replays < p.value()).orElse(false)) { // driver reloaded: counting starts over
                ts = new TimeSeries(400, Duration.ofSeconds(10));
                series.put(g.pciAddress(), ts);
            }
            ts.add(now, replays);
            long hour = (long) (replays - ts.oldestSince(now.minus(CounterRateDetector.HOUR_WINDOW)).orElseThrow().value());
            out.add(GpuPcieLinkRule.replays(hour, replays, warnPerHour, g.pciAddress(), g.index()).on(g.subject()));
        }
        return out;
    }

    @Override
    public void clear(String component) {
        series.keySet().removeIf(address -> component.equals("all") || component.contains("(" + address + ")"));
    }

    @Override
    public int held() {
        return series.size() + series.values().stream().mapToInt(TimeSeries::size).sum();
    }
}
