package dev.railyard.check.rules;

import dev.railyard.model.BurnResult;
import dev.railyard.model.CheckId;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;

import java.util.ArrayList;
import java.util.List;

/**
 * burn.errors: what the load left behind: new Xid lines, new volatile ECC errors, new remapped rows, a load that
 * failed.
 * railyard burn, validate --burn (through the node's burn) and the burn report all take it from here.
 */
public final class BurnErrorsRule implements Rule {

    public static final CheckId ID = CheckId.BURN_ERRORS;

    BurnErrorsRule() {
    }

    @Override
    public CheckId id() {
        return ID;
    }

    @Override
    public String reads() {
        return "Xid lines the kernel logged during the load, volatile ECC counts "
                    + "and remapped rows before and after it, the load's own failure";
    }

    @Override
    public String thresholds() {
        return "none new";
    }

    @Override
    public String severities() {
        return "a new Xid, ECC error or remapped row, a failed load: FAIL; ECC or kernel log unread: UNKNOWN";
    }

    @Override
    public String fix() {
        return "nvidia-smi -q -d ECC,ROW_REMAPPER; a GPU with new errors under load goes back to the vendor";
    }

    public static Verdict verdict(BurnResult r, BurnResult.Gpu g) {
        CheckId id = ID;
        String expected = "no new Xid, ECC error or row remap under load, and the load runs to its end";
        List<String> found = new ArrayList<>(), unread = new ArrayList<>();
        g.loadFailure().optional().ifPresent(f -> found.add("the load failed: " + f));
        if (r.newXids() instanceof Reading.Present<List<dev.railyard.model.XidEvent>>(var xids)) {
            xids.stream().filter(x -> x.concerns(g.pciAddress()))
                    .forEach(x -> found.add("Xid " + x.xid() + ": " + x.message()));
        } else unread.add("kernel log: " + r.newXids().describe());
        if (g.eccBefore() instanceof Reading.Present<dev.railyard.model.Gpu.EccCounts>(var b)
                && g.eccAfter() instanceof Reading.Present<dev.railyard.model.Gpu.EccCounts>(var a)) {
            long corrected = a.volatileCorrected() - b.volatileCorrected();
            long uncorrected = a.volatileUncorrected() - b.volatileUncorrected();
            if (corrected > 0) found.add(corrected + " new corrected ECC errors");
            if (uncorrected > 0) found.add(uncorrected + " new uncorrected ECC errors");
        } else unread.add("ECC: " + (g.eccBefore().isPresent() ? g.eccAfter() : g.eccBefore()).describe());
        if (g.remapBefore() instanceof Reading.Present<dev.railyard.model.Gpu.RemappedRows>(var b)
                && g.remapAfter() instanceof Reading.Present<dev.railyard.model.Gpu.RemappedRows>(var a)) {
            int rows = a.correctable() + a.uncorrectable() - b.correctable() - b.uncorrectable();
            if (rows > 0) found.add(rows + " new remapped rows");
            if ((a.pending() && !b.pending()) || (a.failure() && !b.failure())) {
                found.add("a row remap " + (a.failure() ? "failed" : "is pending"));
            }
        } else unread.add("row remapping: " + (g.remapBefore().isPresent() ? g.remapAfter() : g.remapBefore()).describe());
        if (!found.isEmpty()) {
            return new Verdict(id, Severity.FAIL, String.join("; ", found), expected,
                    "nvidia-smi -q -d ECC,ROW_REMAPPER -i " + g.pciAddress() + "; dmesg | grep -i xid"
                            + "  # a GPU with new uncorrected errors or Xids under load goes back to the vendor");
        }
        // row remapping is absent on GPUs before A100; the ECC counters and the kernel log are needed for a PASS
        if (!r.newXids().isPresent() || !g.eccBefore().isPresent() || !g.eccAfter().isPresent()) {
            return unknown(String.join("; ", unread), expected);
        }
        return new Verdict(id, Severity.PASS, "none" + (unread.isEmpty() ? "" : " (" + String.join("; ", unread) + ")"),
                expected, "");
    }

    private static Verdict unknown(String why, String expected) {
        return new Verdict(ID, Severity.UNKNOWN, why, expected, "");
    }
}
