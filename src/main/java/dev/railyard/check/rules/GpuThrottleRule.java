package dev.railyard.check.rules;

import dev.railyard.check.Fix;
import dev.railyard.model.CheckId;
import dev.railyard.model.Gpu.ClockEvent;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * gpu.throttle: why the GPU's clocks are held down right now (NVML's clock-event reasons). Hardware slowdown,
 * hardware thermal slowdown and power brake are faults; the driver's thermal slowdown a warning; the software power
 * cap is how a loaded GPU runs. The one mapping of the reasons: burn.throttle takes {@link #HARD} and
 * {@link ClockEvent#SW_THERMAL_SLOWDOWN} from here for the GPUs it loads.
 */
public final class GpuThrottleRule implements Rule {

    public static final CheckId ID = CheckId.GPU_THROTTLE;
    public static final String EXPECTED = "no thermal/power-brake/HW slowdown";
    /** The reasons that are a fault of the GPU's cooling or power whenever they show. */
    public static final Set<ClockEvent> HARD =
            EnumSet.of(ClockEvent.HW_SLOWDOWN, ClockEvent.HW_THERMAL_SLOWDOWN, ClockEvent.HW_POWER_BRAKE_SLOWDOWN);
    /** What shows the GPU's temperatures and clock-event reasons, and what hands check. */
    public static final String COOLING = Fix.lines(
            Fix.note("check airflow, fans and the inlet temperature; a power budget assumes full cooling"),
            "nvidia-smi -q -d TEMPERATURE,PERFORMANCE");

    GpuThrottleRule() {
    }

    @Override
    public CheckId id() {
        return ID;
    }

    @Override
    public String reads() {
        return "Gpu clock-event reasons (NVML)";
    }

    @Override
    public String thresholds() {
        return "none";
    }

    @Override
    public String severities() {
        return "HW slowdown, HW thermal, power brake: FAIL; SW thermal: WARN; SW power cap: INFO; unread: UNKNOWN";
    }

    @Override
    public String fix() {
        return "check cooling; power brake: the PSUs and the BMC";
    }

    public static Verdict verdict(Reading<List<ClockEvent>> r) {
        if (!(r instanceof Reading.Present<List<ClockEvent>>(List<ClockEvent> events))) {
            return new Verdict(ID, Severity.UNKNOWN, r.describe(), EXPECTED, "");
        }
        String observed = events.isEmpty() ? "none" : events.stream().map(Enum::name).collect(Collectors.joining(", "));
        if (events.stream().anyMatch(HARD::contains)) {
            return new Verdict(ID, Severity.FAIL, observed, EXPECTED, Fix.lines(COOLING, Fix.note("HW_POWER_BRAKE: the "
                    + "PSU or BMC asserted power brake; check the PSUs and the BMC's power capping"),
                    "ipmitool sdr type 'Power Supply'"));
        }
        if (events.contains(ClockEvent.SW_THERMAL_SLOWDOWN)) {
            return new Verdict(ID, Severity.WARN, observed, EXPECTED, COOLING);
        }
        if (events.contains(ClockEvent.SW_POWER_CAP)) {
            return new Verdict(ID, Severity.INFO, observed, EXPECTED, Fix.lines(Fix.note("at its power limit under "
                    + "load (normal); compare with the power budget"), "nvidia-smi -q -d POWER"));
        }
        return new Verdict(ID, Severity.PASS, observed, EXPECTED, "");
    }
}
