package dev.railyard.agent;

import dev.railyard.check.rules.GpuCountRule;
import dev.railyard.check.rules.Verdict;
import dev.railyard.model.CheckId;
import dev.railyard.model.Finding;
import dev.railyard.model.Gpu;
import dev.railyard.model.NodeInventory;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * gpu.count without a spec: a GPU the agent has seen and no longer sees fell off the bus (or was unbound from the
 * driver), UNHEALTHY under the name it last had. With no GPU read at all and NVML failed, nothing can be told apart
 * from a broken reader, so each GPU seen before is UNKNOWN instead.
 */
public final class GpuPresenceDetector implements Detector {

    public static final String ID = CheckId.GPU_COUNT.id();

    /** By lower-case PCI address: the GPU's name when last seen, and when. */
    private final Map<String, Seen> seen = new LinkedHashMap<>();

    private record Seen(String subject, Instant at) {}

    @Override
    public List<Finding> observe(NodeInventory sample, Instant now) {
        Set<String> present = new HashSet<>();
        for (Gpu g : sample.gpu().gpus()) {
            String address = g.pciAddress().toLowerCase(Locale.ROOT);
            present.add(address);
            seen.put(address, new Seen(g.subject(), now));
        }
        boolean unread = sample.gpu().gpus().isEmpty() && !sample.gpu().nvml().isPresent();
        List<Finding> out = new ArrayList<>();
        for (var e : seen.entrySet()) {
            if (present.contains(e.getKey())) continue;
            String address = e.getKey();
            Verdict v = unread ? GpuCountRule.goneUnread(sample.gpu().nvml())
                    : DetectorFixes.withDrain(GpuCountRule.gone(address, e.getValue().at()),
                    "GPU " + address + " gone from the bus");
            out.add(v.on(e.getValue().subject()));
        }
        return out;
    }

    @Override
    public int held() {
        return seen.size();
    }
}
