package dev.railyard.check;

import dev.railyard.check.rules.GpuCountRule;
import dev.railyard.check.rules.GpuDriverRule;
import dev.railyard.model.CheckId;
import dev.railyard.model.ClusterSpec;
import dev.railyard.model.Finding;
import dev.railyard.model.Gpu;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * gpu.count and gpu.driver for the node: the GPUs found and NVML's versions against the spec's gpus for the node,
 * judged by {@link GpuCountRule} and {@link GpuDriverRule}. Without a spec both are INFO (there is nothing to compare
 * to on one node).
 */
public final class GpuSpecCheck implements Check {

    static final String COUNT = CheckId.GPU_COUNT.id();
    static final String DRIVER = CheckId.GPU_DRIVER.id();

    @Override
    public String id() {
        return "gpu";
    }

    @Override
    public List<Finding> run(CheckInput in) {
        // the node's own gpus where it has them (a mixed cluster), else the cluster's
        Optional<ClusterSpec.Gpus> want = in.spec().flatMap(s -> s.gpusFor(in.node()));
        if (want.isEmpty() && in.gpuCount() == 0) return List.of();
        long onPci = in.inventory().pciDevices().stream().filter(p -> p.isNvidiaGpu()).count();
        List<Finding> out = new ArrayList<>();
        out.add(GpuCountRule.count(in.gpuCount(), want, in.possibleUnreadGpus(), onPci, noDriver(in)).on(in.node()));
        want.ifPresent(w -> {
            for (Gpu g : in.inventory().gpu().gpus()) {
                GpuCountRule.model(g.name(), w.model()).ifPresent(v -> out.add(v.on(g.subject())));
            }
        });
        out.add(GpuDriverRule.versions(in.inventory().gpu().nvml(), want.flatMap(ClusterSpec.Gpus::driver),
                want.flatMap(ClusterSpec.Gpus::cuda), in.gpuCount(), noDriver(in)).on(in.node()));
        return out;
    }

    /** See {@link GpuCountRule#sameModel}. */
    static boolean sameModel(String name, String model) {
        return GpuCountRule.sameModel(name, model);
    }

    /** NVML answered nothing and the module list, read, has no nvidia module; an unread list proves nothing. */
    private static boolean noDriver(CheckInput in) {
        return !in.inventory().gpu().nvml().isPresent()
                && in.inventory().host().modules().optional().map(m -> !m.getOrDefault("nvidia", false)).orElse(false);
    }
}
