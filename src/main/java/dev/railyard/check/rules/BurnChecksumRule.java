package dev.railyard.check.rules;

import dev.railyard.model.BurnResult;
import dev.railyard.model.BurnResult.Checksum;
import dev.railyard.model.BurnResult.Phase;
import dev.railyard.model.CheckId;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * burn.checksum: whether each GPU computed the right answer: its result CRC-32C against the other GPUs of its
 * model, its other result slots, and a tile against the CPU's exact answer.
 * railyard burn, validate --burn (through the node's burn) and the burn report all take it from here.
 */
public final class BurnChecksumRule implements Rule {

    public static final CheckId ID = CheckId.BURN_CHECKSUM;

    BurnChecksumRule() {
    }

    @Override
    public CheckId id() {
        return ID;
    }

    @Override
    public String reads() {
        return "CRC-32C of each GPU's last result, other result slots, a 64 x 64 "
                    + "tile against the CPU's exact answer";
    }

    @Override
    public String thresholds() {
        return "the same on every GPU of a model, in every slot, and the "
                    + "CPU's within 1/256 of the products' magnitude";
    }

    @Override
    public String severities() {
        return "differs: FAIL; no result: UNKNOWN";
    }

    @Override
    public String fix() {
        return "repeat on the GPU alone; a GPU that computes wrong results goes back to the vendor";
    }

    public static Verdict verdict(BurnResult r, BurnResult.Gpu g) {
        CheckId id = ID;
        String expected = "the same result on every GPU, across its result slots, and the CPU's on a tile";
        List<String> wrong = new ArrayList<>();
        List<String> ok = new ArrayList<>();
        for (Phase p : g.phases()) {
            if (!(p.checksum() instanceof Reading.Present<Checksum>(Checksum c))) {
                return unknown(p.precision() + ": " + p.checksum().describe(), expected);
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
        if (g.phases().isEmpty()) return unknown("no phase finished: " + g.loadFailure().describe(), expected);
        if (!wrong.isEmpty()) {
            return new Verdict(id, Severity.FAIL, String.join("; ", wrong), expected,
                    "railyard burn --devices " + g.device() + " --duration 10m  # repeat alone; a GPU that computes "
                            + "wrong results (silent data corruption) goes back to the vendor");
        }
        return new Verdict(id, Severity.PASS, "CRC-32C " + String.join(", ", ok) + ", tile matches the CPU", expected, "");
    }

    private static Verdict unknown(String why, String expected) {
        return new Verdict(ID, Severity.UNKNOWN, why, expected, "");
    }

    private static String others(Map<Long, List<Integer>> byCrc, long mine) {
        return byCrc.entrySet().stream().filter(e -> e.getKey() != mine)
                .map(e -> String.format(Locale.ROOT, "%08x on GPU%s", e.getKey(),
                        e.getValue().stream().map(String::valueOf).collect(Collectors.joining(",GPU"))))
                .collect(Collectors.joining("; "));
    }
}
