package dev.railyard.check;

import dev.railyard.check.rules.GpuTemperatureRule;
import dev.railyard.check.rules.GpuThrottleRule;
import dev.railyard.model.CheckId;
import dev.railyard.model.Finding;
import dev.railyard.model.Gpu;
import dev.railyard.model.Gpu.ClockEvent;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;

import java.util.ArrayList;
import java.util.List;

/**
 * gpu.temperature: above the warn threshold (85 C default) is WARN, at the GPU's slowdown threshold is FAIL.
 * gpu.throttle: the clock-event reasons, judged by {@link GpuThrottleRule}.
 */
public final class GpuThermalCheck implements Check {

    static final String TEMP = CheckId.GPU_TEMPERATURE.id();
    static final String THROTTLE = CheckId.GPU_THROTTLE.id();

    @Override
    public String id() {
        return "gpu";
    }

    @Override
    public List<Finding> run(CheckInput in) {
        double warnC = GpuTemperatureRule.warnC(in.spec());
        List<Finding> out = new ArrayList<>();
        for (Gpu g : in.inventory().gpu().gpus()) {
            String subject = g.subject();
            out.add(temperature(subject, g, warnC));
            out.add(throttle(subject, g.clockEvents()));
        }
        return out;
    }

    private static Finding temperature(String subject, Gpu g, double warnC) {
        String expected = GpuTemperatureRule.expected(warnC, g.slowdownTemperatureC().optional());
        if (!(g.temperatureC() instanceof Reading.Present<Integer>(Integer t))) {
            return Finding.unknown(TEMP, subject, g.temperatureC(), expected);
        }
        Severity severity = GpuTemperatureRule.severity(t, warnC, g.slowdownTemperatureC().optional());
        return Finding.of(TEMP, severity, subject, t + " C", expected,
                severity == Severity.PASS ? "" : GpuTemperatureRule.fix(g));
    }

    private static Finding throttle(String subject, Reading<List<ClockEvent>> r) {
        return GpuThrottleRule.verdict(r).on(subject);
    }
}
