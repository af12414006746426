package dev.railyard.agent;

import dev.railyard.check.Fix;
import dev.railyard.check.ShellWord;
import dev.railyard.model.CheckId;
import dev.railyard.model.Finding;
import dev.railyard.model.Gpu;
import dev.railyard.model.NodeInventory;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * gpu.temperature sustained: a GPU at or above the warning temperature for the whole {@code window} (the snapshot
 * check warns on one hot reading; this says the heat lasts, which is a cooling problem, not a burst).
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
            String subject = "GPU" + g.index() + " (" + g.pciAddress() + ")";
            if (!(g.temperatureC() instanceof Reading.Present<Integer>(Integer t)) || t < warnC) {
                hotSince.remove(g.pciAddress());
                continue;
            }
            Instant since = hotSince.computeIfAbsent(g.pciAddress(), k -> now);
            Duration hot = Duration.between(since, now);
            if (hot.compareTo(window) >= 0) {
                out.add(Finding.of(ID, Severity.WARN, subject, t + " °C, at or above " + (int) warnC + " °C for "
                                + hot.toSeconds() + " s", "< " + (int) warnC + " °C sustained",
                        Fix.lines("nvidia-smi -q -d TEMPERATURE,PERFORMANCE -i " + ShellWord.of(g.pciAddress()),
                                "ipmitool sdr type Temperature",
                                "ipmitool sdr type Fan",
                                Fix.note("the heat lasts: check the node's fans, inlet air temperature and coolant flow, "
                                        + "and what blocks the air to GPU" + g.index()))));
            }
        }
        return out;
    }

    @Override
    public int held() {
        return hotSince.size();
    }
}
