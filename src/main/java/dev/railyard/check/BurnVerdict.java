package dev.railyard.check;

import dev.railyard.check.rules.BurnChecksumRule;
import dev.railyard.check.rules.BurnErrorsRule;
import dev.railyard.check.rules.BurnPowerRule;
import dev.railyard.check.rules.BurnSpeedRule;
import dev.railyard.check.rules.BurnThrottleRule;
import dev.railyard.model.BurnResult;
import dev.railyard.model.BurnResult.Phase;
import dev.railyard.model.BurnResult.Precision;
import dev.railyard.model.Finding;
import dev.railyard.model.Severity;

import java.util.ArrayList;
import java.util.List;

/**
 * A burn's findings (burn.speed, burn.throttle, burn.errors, burn.checksum, burn.power), for {@code railyard burn},
 * {@code validate --burn} and diagnose alike: facts from {@link BurnResult} in, each ID's rule called, one finding per
 * GPU and check (burn.power: one for the node).
 */
public final class BurnVerdict {

    private BurnVerdict() {
    }

    public static List<Finding> judge(BurnResult r) {
        List<Finding> out = new ArrayList<>();
        for (BurnResult.Gpu g : r.gpus()) {
            out.add(BurnSpeedRule.verdict(r, g).on(g.subject()));
            out.add(BurnThrottleRule.verdict(g).on(g.subject()));
            out.add(BurnErrorsRule.verdict(r, g).on(g.subject()));
            out.add(BurnChecksumRule.verdict(r, g).on(g.subject()));
        }
        out.add(BurnPowerRule.verdict(r).on("this node"));
        return out;
    }

    /** Each GPU's worst severity, with the IDs that made it so, in device order. */
    public record GpuVerdict(int device, String pciAddress, Severity severity, List<String> failing) {}

    public static List<GpuVerdict> perGpu(BurnResult r, List<Finding> findings) {
        List<GpuVerdict> out = new ArrayList<>();
        for (BurnResult.Gpu g : r.gpus()) {
            List<Finding> mine = findings.stream().filter(f -> f.subject().equals(g.subject())).toList();
            Severity worst = mine.stream().map(Finding::severity).reduce(Severity.PASS, Severity::max);
            out.add(new GpuVerdict(g.device(), g.pciAddress(), worst, mine.stream()
                    .filter(f -> f.severity() == Severity.FAIL).map(Finding::id).distinct().toList()));
        }
        return out;
    }

    /** Precisions every GPU ran, for the summary's columns. */
    public static List<Precision> precisions(BurnResult r) {
        return r.gpus().stream().flatMap(g -> g.phases().stream()).map(Phase::precision).distinct().toList();
    }
}
