package dev.railyard.bench.burn;

import dev.railyard.model.BurnResult.NodePower;
import dev.railyard.model.Gpu;
import dev.railyard.model.Reading;
import dev.railyard.plan.PowerPlan;

import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;

/**
 * {@code plan power}'s node_power for this node, beside which a burn sets its measured peak: the same PowerPlan
 * arithmetic (GPUs x GPU watts + host watts), with the GPU figure from --gpu-watts or else the highest enforced
 * power limit NVML reads, the ceiling the driver holds each GPU to.
 */
final class NodePlan {

    private NodePlan() {
    }

    static NodePower power(Reading<Double> peak, Reading<List<Gpu>> gpus, int count, BurnOptions options) {
        OptionalDouble watts = options.gpuWatts();
        String source = "--gpu-watts";
        if (watts.isEmpty() && gpus instanceof Reading.Present<List<Gpu>>(List<Gpu> list)) {
            watts = list.stream().flatMap(g -> g.powerLimitWatts().optional().stream()).mapToDouble(Double::doubleValue).max();
            source = "the GPUs' enforced power limit";
        }
        if (watts.isEmpty()) {
            return new NodePower(peak, Reading.absent("no --gpu-watts, and NVML read no GPU power limit: "
                    + (gpus.isPresent() ? "no GPU answered" : gpus.describe())), "");
        }
        double node = new PowerPlan(1, count, watts.getAsDouble(), options.hostWatts(), 0, 2, 1, 32, 230, 1, 0.8, 1.2)
                .calculate().result("node_power");
        return new NodePower(peak, Reading.of(node), String.format(Locale.ROOT,
                "plan power --nodes 1 --gpus-per-node %d --gpu-watts %.0f (%s) --host-watts %.0f",
                count, watts.getAsDouble(), source, options.hostWatts()));
    }
}
