package dev.railyard.check;

import dev.railyard.check.rules.GpuTemperatureRule;
import dev.railyard.check.rules.RdmaBandwidthRule;
import dev.railyard.model.CheckId;
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

    static final String TEMP = CheckId.GPU_TEMPERATURE.id();
    static final String THROTTLE = CheckId.GPU_THROTTLE.id();
    private static final Set<ClockEvent> HARD =
            Set.of(ClockEvent.HW_SLOWDOWN, ClockEvent.HW_THERMAL_SLOWDOWN, ClockEvent.HW_POWER_BRAKE_SLOWDOWN);
    private static final String COOLING = Fix.lines(
            Fix.note("check airflow, fans and the inlet temperature; a power budget assumes full cooling"),
            "nvidia-smi -q -d TEMPERATURE,PERFORMANCE");

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
        String expected = "no thermal/power-brake/HW slowdown";
        if (!(r instanceof Reading.Present<List<ClockEvent>>(List<ClockEvent> events))) {
            return Finding.unknown(THROTTLE, subject, r, expected);
        }
        String observed = events.isEmpty() ? "none" : events.stream().map(Enum::name).collect(Collectors.joining(", "));
        if (events.stream().anyMatch(HARD::contains)) {
            return Finding.of(THROTTLE, Severity.FAIL, subject, observed, expected,
                    Fix.lines(COOLING, Fix.note("HW_POWER_BRAKE: the PSU or BMC asserted power brake; check the PSUs "
                            + "and the BMC's power capping"), "ipmitool sdr type 'Power Supply'"));
        }
        if (events.contains(ClockEvent.SW_THERMAL_SLOWDOWN)) {
            return Finding.of(THROTTLE, Severity.WARN, subject, observed, expected, COOLING);
        }
        if (events.contains(ClockEvent.SW_POWER_CAP)) {
            return Finding.of(THROTTLE, Severity.INFO, subject, observed, expected,
                    Fix.lines(Fix.note("at its power limit under load (normal); compare with the power budget"),
                            "nvidia-smi -q -d POWER"));
        }
        return Finding.pass(THROTTLE, subject, observed, expected);
    }
}
