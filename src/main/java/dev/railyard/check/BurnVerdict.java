package dev.railyard.check;

import dev.railyard.model.BurnResult;
import dev.railyard.model.BurnResult.Checksum;
import dev.railyard.model.BurnResult.Phase;
import dev.railyard.model.BurnResult.Precision;
import dev.railyard.model.CheckId;
import dev.railyard.model.Finding;
import dev.railyard.model.Gpu.ClockEvent;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The one judge of a burn (burn.speed, burn.throttle, burn.errors, burn.checksum, burn.power), for {@code railyard
 * burn}, {@code validate --burn} and diagnose alike: facts from {@link BurnResult} in, findings out, one per GPU and
 * check (burn.power: one for the node).
 */
public final class BurnVerdict {

    /** The clock-event reasons that fail a GPU under load; a software power cap is how a loaded GPU normally runs. */
    static final Set<ClockEvent> FAILING_EVENTS = EnumSet.of(ClockEvent.HW_SLOWDOWN, ClockEvent.SW_THERMAL_SLOWDOWN,
            ClockEvent.HW_THERMAL_SLOWDOWN, ClockEvent.HW_POWER_BRAKE_SLOWDOWN);

    private BurnVerdict() {
    }

    public static List<Finding> judge(BurnResult r) {
        List<Finding> out = new ArrayList<>();
        for (BurnResult.Gpu g : r.gpus()) {
            out.add(speed(r, g));
            out.add(throttle(g));
            out.add(errors(r, g));
            out.add(checksum(r, g));
        }
        out.add(power(r));
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

    private static Finding speed(BurnResult r, BurnResult.Gpu g) {
        String id = CheckId.BURN_SPEED.id();
        String expected = String.format(Locale.ROOT, "within %.0f %% of the node's best GPU", r.tolerancePercent());
        if (g.phases().isEmpty()) return unknown(id, g, "no phase finished: " + g.loadFailure().describe(), expected);
        List<String> slow = new ArrayList<>(), seen = new ArrayList<>();
        boolean alone = true;
        for (Phase p : g.phases()) {
            if (p.multiplies() == 0) return unknown(id, g, p.precision() + ": no multiply finished", expected);
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
            return Finding.of(id, Severity.FAIL, g.subject(), String.join("; ", slow), expected,
                    "nvidia-smi -q -d PERFORMANCE,CLOCK,POWER -i " + g.pciAddress() + "  # clocks and limits of the slow GPU;"
                            + " then reseat or replace it if it stays behind its neighbours");
        }
        if (alone) {
            return Finding.of(id, Severity.INFO, g.subject(), String.join("; ", seen).replaceAll(" \\(.*?\\)", "")
                    + " (the only GPU loaded: none to compare with)", expected, "");
        }
        return Finding.pass(id, g.subject(), String.join("; ", seen), expected);
    }

    private static Finding throttle(BurnResult.Gpu g) {
        String id = CheckId.BURN_THROTTLE.id();
        String expected = "no HW slowdown, thermal slowdown or power brake under load";
        Map<ClockEvent, Double> firstSeen = new LinkedHashMap<>();
        int read = 0, capped = 0;
        String why = "no sample";
        for (BurnResult.Sample s : g.samples()) {
            switch (s.clockEvents()) {
                case Reading.Present<List<ClockEvent>>(List<ClockEvent> events) -> {
                    read++;
                    if (events.contains(ClockEvent.SW_POWER_CAP)) capped++;
                    for (ClockEvent e : events) if (FAILING_EVENTS.contains(e)) firstSeen.putIfAbsent(e, s.atSeconds());
                }
                default -> why = s.clockEvents().describe();
            }
        }
        if (!firstSeen.isEmpty()) {
            String events = firstSeen.entrySet().stream().map(e -> String.format(Locale.ROOT, "%s from %.0f s",
                    e.getKey(), e.getValue())).collect(Collectors.joining(", "));
            return Finding.of(id, Severity.FAIL, g.subject(), events, expected,
                    "nvidia-smi -q -d PERFORMANCE,TEMPERATURE -i " + g.pciAddress()
                            + "  # then check the GPU's airflow or cooling, and the PSUs for a power brake");
        }
        if (read == 0) return unknown(id, g, "clock-event reasons unread: " + why, expected);
        return Finding.pass(id, g.subject(), "none in " + read + " samples" + (capped == 0 ? ""
                : String.format(Locale.ROOT, "; at its software power cap in %d (normal under full load)", capped)), expected);
    }

    private static Finding errors(BurnResult r, BurnResult.Gpu g) {
        String id = CheckId.BURN_ERRORS.id();
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
            return Finding.of(id, Severity.FAIL, g.subject(), String.join("; ", found), expected,
                    "nvidia-smi -q -d ECC,ROW_REMAPPER -i " + g.pciAddress() + "; dmesg | grep -i xid"
                            + "  # a GPU with new uncorrected errors or Xids under load goes back to the vendor");
        }
        // row remapping is absent on GPUs before A100; the ECC counters and the kernel log are needed for a PASS
        if (!r.newXids().isPresent() || !g.eccBefore().isPresent() || !g.eccAfter().isPresent()) {
            return unknown(id, g, String.join("; ", unread), expected);
        }
        return Finding.pass(id, g.subject(), "none" + (unread.isEmpty() ? "" : " (" + String.join("; ", unread) + ")"),
                expected);
    }

    private static Finding checksum(BurnResult r, BurnResult.Gpu g) {
        String id = CheckId.BURN_CHECKSUM.id();
        String expected = "the same result on every GPU, across its result slots, and the CPU's on a tile";
        List<String> wrong = new ArrayList<>();
        List<String> ok = new ArrayList<>();
        for (Phase p : g.phases()) {
            if (!(p.checksum() instanceof Reading.Present<Checksum>(Checksum c))) {
                return unknown(id, g, p.precision() + ": " + p.checksum().describe(), expected);
            }
            if (c.tileMismatches() > 0) {
                wrong.add(String.format(Locale.ROOT, "%s: %d of %d elements of the %dx%d tile differ from the CPU's "
                                + "(largest relative error %.3g)", p.precision(), c.tileMismatches(),
                        (long) c.tileSize() * c.tileSize(), c.tileSize(), c.tileSize(), c.tileMaxRelativeError()));
            }
            if (c.slotsDiffering() > 0) {
                wrong.add(p.precision() + ": " + c.slotsDiffering() + " of " + c.slotsCompared()
                        + " other result slots differ from the last result");
            }
            Map<Long, List<Integer>> byCrc = new LinkedHashMap<>();
            r.gpus().stream().filter(o -> o.name().equals(g.name())).forEach(o -> o.phases().stream()
                    .filter(q -> q.precision() == p.precision()).forEach(q -> q.checksum().optional()
                            .ifPresent(oc -> byCrc.computeIfAbsent(oc.crc32c(), k -> new ArrayList<>()).add(o.device()))));
            int total = byCrc.values().stream().mapToInt(List::size).sum();
            List<Integer> same = byCrc.getOrDefault(c.crc32c(), List.of());
            if (byCrc.size() > 1) {
                boolean majority = same.size() * 2 > total;
                if (!majority) {
                    wrong.add(String.format(Locale.ROOT, "%s: result CRC-32C %08x, shared by %d of %d GPUs of this model "
                            + "(%s)", p.precision(), c.crc32c(), same.size(), total, others(byCrc, c.crc32c())));
                }
            }
            ok.add(String.format(Locale.ROOT, "%s %08x", p.precision(), c.crc32c()));
        }
        if (g.phases().isEmpty()) return unknown(id, g, "no phase finished: " + g.loadFailure().describe(), expected);
        if (!wrong.isEmpty()) {
            return Finding.of(id, Severity.FAIL, g.subject(), String.join("; ", wrong), expected,
                    "railyard burn --devices " + g.device() + " --duration 10m  # repeat alone; a GPU that computes "
                            + "wrong results (silent data corruption) goes back to the vendor");
        }
        return Finding.pass(id, g.subject(), "CRC-32C " + String.join(", ", ok) + ", tile matches the CPU", expected);
    }

    private static String others(Map<Long, List<Integer>> byCrc, long mine) {
        return byCrc.entrySet().stream().filter(e -> e.getKey() != mine)
                .map(e -> String.format(Locale.ROOT, "%08x on GPU%s", e.getKey(),
                        e.getValue().stream().map(String::valueOf).collect(Collectors.joining(",GPU"))))
                .collect(Collectors.joining("; "));
    }

    private static Finding power(BurnResult r) {
        String id = CheckId.BURN_POWER.id();
        String subject = "this node";
        BurnResult.NodePower p = r.power();
        if (!(p.peakWatts() instanceof Reading.Present<Double>(Double peak))) {
            return Finding.unknown(id, subject, p.peakWatts(), "peak GPU power within plan power's node_power");
        }
        if (!(p.planWatts() instanceof Reading.Present<Double>(Double plan))) {
            return Finding.of(id, Severity.INFO, subject, String.format(Locale.ROOT, "peak %.0f W of GPUs; no plan figure: %s",
                    peak, p.planWatts().describe()), "peak GPU power within plan power's node_power", "");
        }
        String observed = String.format(Locale.ROOT, "peak %.0f W of GPUs, %.0f %% of plan power's node_power %.0f W",
                peak, 100 * peak / plan, plan);
        String expected = "at most node_power of " + p.planBasis();
        if (peak > plan) {
            return Finding.of(id, Severity.WARN, subject, observed, expected,
                    "railyard plan power --gpu-watts " + Math.round(peak / Math.max(1, r.gpus().size()))
                            + " ...  # plan PSUs and breakers for the power measured under load");
        }
        return Finding.pass(id, subject, observed, expected);
    }

    private static Finding unknown(String id, BurnResult.Gpu g, String why, String expected) {
        return new Finding(id, Severity.UNKNOWN, g.subject(), why, expected, "");
    }

    /** Precisions every GPU ran, for the summary's columns. */
    public static List<Precision> precisions(BurnResult r) {
        return r.gpus().stream().flatMap(g -> g.phases().stream()).map(Phase::precision).distinct().toList();
    }
}
