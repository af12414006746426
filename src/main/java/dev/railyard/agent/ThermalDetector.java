package dev.railyard.agent;

import dev.railyard.check.rules.GpuTemperatureRule;
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
import java.util.Optional;

/**
 * gpu.temperature sustained: a GPU hot by {@link GpuTemperatureRule} for the whole {@code window} (the snapshot
 * check judges one reading by the same rule; this says the heat lasts, which is a cooling problem, not a burst).
 */
public final class ThermalDetector implements Detector {

    public static final String ID = CheckId.GPU_TEMPERATURE.id();

    private final double warnC;
    private final Duration window;
    private final Map<String, Instant> hotSince = new HashMap<>();

    public ThermalDetector(double warnC, Duration window) {
        this.warnC = warnC;
        this.window = window;
    }

    @Override
    public List<Finding> observe(NodeInventory sample, Instant now) {
        List<Finding> out = new ArrayList<>();
        for (Gpu g : sample.gpu().gpus()) {
            String subject = g.subject();
            if (!(g.temperatureC() instanceof Reading.Present<Integer>(Integer t)) || !GpuTemperatureRule.hot(t, warnC)) {
                hotSince.remove(g.pciAddress());
                continue;
            }
            Instant since = hotSince.computeIfAbsent(g.pciAddress(), k -> now);
            Duration hot = Duration.between(since, now);
            if (hot.compareTo(window) >= 0) {
                Optional<Integer> slowdown = g.slowdownTemperatureC().optional();
                out.add(Finding.of(ID, GpuTemperatureRule.severity(t, warnC, slowdown), subject, t + " C, above "
                                + (int) warnC + " C for " + hot.toSeconds() + " s",
                        GpuTemperatureRule.expected(warnC, slowdown) + " sustained", GpuTemperatureRule.fix(g)));
            }
        }
        return out;
    }

    @Override
    public int held() {
        return hotSince.size();
    }
}
