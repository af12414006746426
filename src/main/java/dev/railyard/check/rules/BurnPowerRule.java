package dev.railyard.check.rules;

import dev.railyard.model.BurnResult;
import dev.railyard.model.CheckId;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;

import java.util.Locale;

/**
 * burn.power: the largest sum of the GPUs' power in one sample against plan power's node_power (advice: the
 * PSUs and breakers are planned from it).
 * railyard burn, validate --burn (through the node's burn) and the burn report all take it from here.
 */
public final class BurnPowerRule implements Rule {

    public static final CheckId ID = CheckId.BURN_POWER;

    BurnPowerRule() {
    }

    @Override
    public CheckId id() {
        return ID;
    }

    @Override
    public String reads() {
        return "the largest sum of the GPUs' NVML power in one sample";
    }

    @Override
    public String thresholds() {
        return "plan power's node_power (GPUs x --gpu-watts or the enforced limit, + --host-watts)";
    }

    @Override
    public String severities() {
        return "above: WARN (advice); no plan figure: INFO; power unread: UNKNOWN";
    }

    @Override
    public String fix() {
        return "plan PSUs and breakers for the measured power";
    }

    public static Verdict verdict(BurnResult r) {
        CheckId id = ID;
        BurnResult.NodePower p = r.power();
        if (!(p.peakWatts() instanceof Reading.Present<Double>(Double peak))) {
            return new Verdict(id, Severity.UNKNOWN, p.peakWatts().describe(), "peak GPU power within plan power's node_power", "");
        }
        if (!(p.planWatts() instanceof Reading.Present<Double>(Double plan))) {
            return new Verdict(id, Severity.INFO, String.format(Locale.ROOT, "peak %.0f W of GPUs; no plan figure: %s",
                    peak, p.planWatts().describe()), "peak GPU power within plan power's node_power", "");
        }
        String observed = String.format(Locale.ROOT, "peak %.0f W of GPUs, %.0f %% of plan power's node_power %.0f W",
                peak, 100 * peak / plan, plan);
        String expected = "at most node_power of " + p.planBasis();
        if (peak > plan) {
            return new Verdict(id, Severity.WARN, observed, expected,
                    "railyard plan power --gpu-watts " + Math.round(peak / Math.max(1, r.gpus().size()))
                            + " ...  # plan PSUs and breakers for the power measured under load");
        }
        return new Verdict(id, Severity.PASS, observed, expected, "");
    }
}
