package dev.railyard.check.rules;

import dev.railyard.model.BurnResult;
import dev.railyard.model.CheckId;
import dev.railyard.model.Gpu.ClockEvent;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;

import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * burn.throttle: the clock-event reasons of every one-second sample under load. Under full load the driver's
 * thermal slowdown is a fault too, beside {@link GpuThrottleRule#HARD}; the software power cap is how a loaded GPU runs.
 * railyard burn, validate --burn (through the node's burn) and the burn report all take it from here.
 */
public final class BurnThrottleRule implements Rule {

    public static final CheckId ID = CheckId.BURN_THROTTLE;

    /** The reasons that fail a GPU under load: the hard ones, and the driver's thermal slowdown. */
    public static final Set<ClockEvent> FAILING = failing();

    BurnThrottleRule() {
    }

    @Override
    public CheckId id() {
        return ID;
    }

    @Override
    public String reads() {
        return "NVML clock-event reasons of every one-second sample under load";
    }

    @Override
    public String thresholds() {
        return "none";
    }

    @Override
    public String severities() {
        return "HW slowdown, SW or HW thermal slowdown, power brake: FAIL; SW power cap: PASS (noted); "
                    + "unread: UNKNOWN";
    }

    @Override
    public String fix() {
        return "check airflow and cooling; power brake: the PSUs and the BMC";
    }

    public static Verdict verdict(BurnResult.Gpu g) {
        CheckId id = ID;
        String expected = "no HW slowdown, thermal slowdown or power brake under load";
        Map<ClockEvent, Double> firstSeen = new LinkedHashMap<>();
        int read = 0, capped = 0;
        String why = "no sample";
        for (BurnResult.Sample s : g.samples()) {
            switch (s.clockEvents()) {
                case Reading.Present<List<ClockEvent>>(List<ClockEvent> events) -> {
                    read++;
                    if (events.contains(ClockEvent.SW_POWER_CAP)) capped++;
                    for (ClockEvent e : events) if (FAILING.contains(e)) firstSeen.putIfAbsent(e, s.atSeconds());
                }
                default -> why = s.clockEvents().describe();
            }
        }
        if (!firstSeen.isEmpty()) {
            String events = firstSeen.entrySet().stream().map(e -> String.format(Locale.ROOT, "%s from %.0f s",
                    e.getKey(), e.getValue())).collect(Collectors.joining(", "));
            return new Verdict(id, Severity.FAIL, events, expected,
                    "nvidia-smi -q -d PERFORMANCE,TEMPERATURE -i " + g.pciAddress()
                            + "  # then check the GPU's airflow or cooling, and the PSUs for a power brake");
        }
        if (read == 0) return unknown("clock-event reasons unread: " + why, expected);
        return new Verdict(id, Severity.PASS, "none in " + read + " samples" + (capped == 0 ? ""
                : String.format(Locale.ROOT, "; at its software power cap in %d (normal under full load)", capped)), expected, "");
    }

    private static Verdict unknown(String why, String expected) {
        return new Verdict(ID, Severity.UNKNOWN, why, expected, "");
    }

    private static Set<ClockEvent> failing() {
        Set<ClockEvent> s = EnumSet.copyOf(GpuThrottleRule.HARD);
        s.add(ClockEvent.SW_THERMAL_SLOWDOWN);
        return Set.copyOf(s);
    }
}
