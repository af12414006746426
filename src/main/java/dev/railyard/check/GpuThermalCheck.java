package dev.railyard.check;

import dev.railyard.model.ClusterSpec;
import dev.railyard.model.Finding;
import dev.railyard.model.Gpu;
import dev.railyard.model.Gpu.ClockEvent;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * gpu.temperature: above the warn threshold (85 C default) is WARN, at the GPU's slowdown threshold is FAIL.
 * gpu.throttle: hardware slowdown / power brake is FAIL, software thermal slowdown WARN, power capping INFO.
 */
public final class GpuThermalCheck implements Check {

    static final String TEMP = "gpu.temperature";
    static final String THROTTLE = "gpu.throttle";
    private static final Set<ClockEvent> HARD =
            Set.of(ClockEvent.HW_SLOWDOWN, ClockEvent.HW_THERMAL_SLOWDOWN, ClockEvent.HW_POWER_BRAKE_SLOWDOWN);
    private static final String COOLING = "check airflow, fans and inlet temperature (nvidia-smi -q -d TEMPERATURE,PERFORMANCE); "
            + "the seeds' power budget assumes full cooling";

    @Override
    public String id() {
        return "gpu";
    }

    @Override
    public List<Finding> run(CheckInput in) {
        double warnC = in.spec().map(s -> s.expect().gpuTempWarnC()).orElse(ClusterSpec.Expect.defaults().gpuTempWarnC());
        List<Finding> out = new ArrayList<>();
        for (Gpu g : in.inventory().gpu().gpus()) {
            String subject = g.subject();
            out.add(temperature(subject, g, warnC));
            out.add(throttle(subject, g.clockEvents()));
        }
        return out;
    }

    private static Finding temperature(String subject, Gpu g, double warnC) {
        String expected = String.format(java.util.Locale.ROOT, "<= %.0f C", warnC)
                + g.slowdownTemperatureC().optional().map(s -> ", below slowdown " + s + " C").orElse("");
        if (!(g.temperatureC() instanceof Reading.Present<Integer>(Integer t))) {
            return Finding.unknown(TEMP, subject, g.temperatureC(), expected);
        }
        String observed = t + " C";
        Integer slowdown = g.slowdownTemperatureC().orElse(null);
        if (slowdown != null && t >= slowdown) return Finding.of(TEMP, Severity.FAIL, subject, observed, expected, COOLING);
        if (t > warnC) return Finding.of(TEMP, Severity.WARN, subject, observed, expected, COOLING);
        return Finding.pass(TEMP, subject, observed, expected);
    }

    private static Finding throttle(String subject, Reading<List<ClockEvent>> r) {
        String expected = "no thermal/power-brake/HW slowdown";
        if (!(r instanceof Reading.Present<List<ClockEvent>>(List<ClockEvent> events))) {
            return Finding.unknown(THROTTLE, subject, r, expected);
        }
        String observed = events.isEmpty() ? "none" : events.stream().map(Enum::name).collect(Collectors.joining(", "));
        if (events.stream().anyMatch(HARD::contains)) {
            return Finding.of(THROTTLE, Severity.FAIL, subject, observed, expected,
                    COOLING + "; HW_POWER_BRAKE means the PSU/BMC asserted power brake: check PSUs and power capping");
        }
        if (events.contains(ClockEvent.SW_THERMAL_SLOWDOWN)) {
            return Finding.of(THROTTLE, Severity.WARN, subject, observed, expected, COOLING);
        }
        if (events.contains(ClockEvent.SW_POWER_CAP)) {
            return Finding.of(THROTTLE, Severity.INFO, subject, observed, expected,
                    "at its power limit under load (normal); compare nvidia-smi -q -d POWER with the spec's budget");
        }
        return Finding.pass(THROTTLE, subject, observed, expected);
    }
}
