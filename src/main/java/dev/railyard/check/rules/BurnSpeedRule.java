package dev.railyard.check.rules;

import dev.railyard.model.BurnResult;
import dev.railyard.model.BurnResult.Phase;
import dev.railyard.model.CheckId;
import dev.railyard.model.Severity;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * burn.speed: each GPU's TFLOP/s per precision under railyard burn's load against the node's best GPU of that
 * precision; a GPU slower by more than --tolerance fails.
 * railyard burn, validate --burn (through the node's burn) and the burn report all take it from here.
 */
public final class BurnSpeedRule implements Rule {

    public static final CheckId ID = CheckId.BURN_SPEED;

    BurnSpeedRule() {
    }

    @Override
    public CheckId id() {
        return ID;
    }

    @Override
    public String reads() {
        return "each GPU's TFLOP/s per precision under railyard burn's load (GPU time "
                    + "of its multiplies)";
    }

    @Override
    public String thresholds() {
        return "--tolerance below the node's best GPU (default 10 %)";
    }

    @Override
    public String severities() {
        return "slower: FAIL; the only GPU loaded: INFO; no multiply finished: UNKNOWN";
    }

    @Override
    public String fix() {
        return "compare the slow GPU's clocks and limits with its neighbours'; reseat or replace it";
    }

    public static Verdict verdict(BurnResult r, BurnResult.Gpu g) {
        CheckId id = ID;
        String expected = String.format(Locale.ROOT, "within %.0f %% of the node's best GPU", r.tolerancePercent());
        if (g.phases().isEmpty()) return unknown("no phase finished: " + g.loadFailure().describe(), expected);
        List<String> slow = new ArrayList<>(), seen = new ArrayList<>();
        boolean alone = true;
        for (Phase p : g.phases()) {
            if (p.multiplies() == 0) return unknown(p.precision() + ": no multiply finished", expected);
            double best = r.gpus().stream().flatMap(o -> o.phases().stream()).filter(o -> o.precision() == p.precision())
                    .mapToDouble(Phase::tflops).max().orElse(p.tflops());
            long others = r.gpus().stream().filter(o -> o != g)
                    .filter(o -> o.phases().stream().anyMatch(q -> q.precision() == p.precision())).count();
            alone &= others == 0;
            double behind = best <= 0 ? 0 : 100 * (1 - p.tflops() / best);
            seen.add(String.format(Locale.ROOT, "%s %.1f TFLOP/s (%.1f %% below the best, %.1f)", p.precision(),
                    p.tflops(), behind, best));
            if (behind > r.tolerancePercent()) slow.add(seen.getLast());
        }
        if (!slow.isEmpty()) {
            return new Verdict(id, Severity.FAIL, String.join("; ", slow), expected,
                    "nvidia-smi -q -d PERFORMANCE,CLOCK,POWER -i " + g.pciAddress() + "  # clocks and limits of the slow GPU;"
                            + " then reseat or replace it if it stays behind its neighbours");
        }
        if (alone) {
            return new Verdict(id, Severity.INFO, String.join("; ", seen).replaceAll(" \\(.*?\\)", "")
                    + " (the only GPU loaded: none to compare with)", expected, "");
        }
        return new Verdict(id, Severity.PASS, String.join("; ", seen), expected, "");
    }

    private static Verdict unknown(String why, String expected) {
        return new Verdict(ID, Severity.UNKNOWN, why, expected, "");
    }
}
