package dev.railyard.collect;

import dev.railyard.model.Gpu.EccCounts;
import dev.railyard.model.Gpu.RemappedRows;
import dev.railyard.model.Reading;

import java.util.List;
import java.util.Optional;

/**
 * ECC counts and row remapping from nvidia-smi -q -x. The ecc_errors layout changed with the DTD: up to v10 each
 * of volatile/aggregate holds single_bit and double_bit sections with a total; v11 and v12 split counts into
 * sram_/dram_ correctable and uncorrectable; v13 splits SRAM uncorrectable into _parity and _secded. NVML's total
 * counts (what the live path reads) are the sum over memory locations, so the parts are added up here.
 */
final class NvidiaSmiXmlEcc {

    private static final List<String> CORRECTED = List.of("sram_correctable", "dram_correctable");
    private static final List<String> UNCORRECTED_V11 = List.of("sram_uncorrectable", "dram_uncorrectable");
    private static final List<String> UNCORRECTED_V13 =
            List.of("sram_uncorrectable_parity", "sram_uncorrectable_secded", "dram_uncorrectable");

    private NvidiaSmiXmlEcc() {
    }

    static Reading<EccCounts> counts(NvidiaSmiXmlNode gpu) {
        Optional<NvidiaSmiXmlNode> ecc = gpu.child("ecc_errors");
        if (ecc.isEmpty()) return Reading.absent("no ecc_errors under " + gpu.path());
        if (!ecc.get().hasElements()) return ecc.get().withoutSections();
        Reading<long[]> vol = pair(ecc.get(), "volatile");
        Reading<long[]> agg = pair(ecc.get(), "aggregate");
        return NvidiaSmiXmlGpu.both(vol, agg, (v, a) -> new EccCounts(v[0], v[1], a[0], a[1]));
    }

    /** {corrected, uncorrected} of one of volatile / aggregate. */
    private static Reading<long[]> pair(NvidiaSmiXmlNode ecc, String kind) {
        Optional<NvidiaSmiXmlNode> section = ecc.child(kind);
        if (section.isEmpty()) return Reading.absent("no " + kind + " under " + ecc.path());
        NvidiaSmiXmlNode s = section.get();
        if (s.child("single_bit").isPresent() || s.child("double_bit").isPresent()) {
            Reading<Long> single = s.child("single_bit").map(b -> b.whole("", "total"))
                    .orElseGet(() -> Reading.absent("no single_bit under " + s.path()));
            Reading<Long> dbl = s.child("double_bit").map(b -> b.whole("", "total"))
                    .orElseGet(() -> Reading.absent("no double_bit under " + s.path()));
            return NvidiaSmiXmlGpu.both(single, dbl, (c, u) -> new long[] {c, u});
        }
        List<String> uncorrected = s.child("sram_uncorrectable").isPresent() ? UNCORRECTED_V11 : UNCORRECTED_V13;
        return NvidiaSmiXmlGpu.both(sum(s, CORRECTED), sum(s, uncorrected), (c, u) -> new long[] {c, u});
    }

    private static Reading<Long> sum(NvidiaSmiXmlNode section, List<String> names) {
        Reading<Long> total = Reading.of(0L);
        for (String name : names) {
            total = NvidiaSmiXmlGpu.both(total, section.whole("", name), Long::sum);
        }
        return total;
    }

    /** Absent as "N/A" on GPUs without row remapping (before A100, and under MIG on some drivers). */
    static Reading<RemappedRows> remappedRows(NvidiaSmiXmlNode gpu) {
        Optional<NvidiaSmiXmlNode> rows = gpu.child("remapped_rows");
        if (rows.isEmpty()) return Reading.absent("no remapped_rows under " + gpu.path());
        NvidiaSmiXmlNode r = rows.get();
        if (!r.hasElements()) return r.withoutSections();
        Reading<int[]> counts = NvidiaSmiXmlGpu.both(r.integer("", "remapped_row_corr"),
                r.integer("", "remapped_row_unc"), (c, u) -> new int[] {c, u});
        Reading<boolean[]> flags = NvidiaSmiXmlGpu.both(r.flag("Yes", "No", "remapped_row_pending"),
                r.flag("Yes", "No", "remapped_row_failure"), (p, f) -> new boolean[] {p, f});
        Reading<RemappedRows> out = NvidiaSmiXmlGpu.both(counts, flags, (c, f) -> new RemappedRows(c[0], c[1], f[0], f[1]));
        // "N/A" stands for the whole section on GPUs without row remapping; a section that lists its fields but
        // lacks one (or says N/A in one) cannot say "no failure, none pending": that is failed, not unsupported
        if (out instanceof Reading.Absent<RemappedRows>(String why)) return Reading.failed(r.path(), why);
        return out;
    }
}
