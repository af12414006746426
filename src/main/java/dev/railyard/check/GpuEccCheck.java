package dev.railyard.check;

import dev.railyard.check.rules.GpuEccRule;
import dev.railyard.model.CheckId;
import dev.railyard.model.Finding;
import dev.railyard.model.Gpu;
import dev.railyard.model.Gpu.EccCounts;
import dev.railyard.model.Gpu.RemappedRows;
import dev.railyard.model.Reading;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** gpu.ecc.uncorrected for every GPU of the node, judged by {@link GpuEccRule}. */
public final class GpuEccCheck implements Check {

    static final String ID = CheckId.GPU_ECC_UNCORRECTED.id();

    @Override
    public String id() {
        return ID;
    }

    @Override
    public List<Finding> run(CheckInput in) {
        List<Finding> out = new ArrayList<>();
        for (Gpu g : in.inventory().gpu().gpus()) {
            String subject = g.subject();
            out.add(ecc(subject, g.ecc()));
            // Row remapping exists only on A100 and later; absent there is normal and the ECC finding covers the GPU.
            if (g.remappedRows() instanceof Reading.Present<RemappedRows>(RemappedRows rows)) {
                GpuEccRule.remap(rows, Optional.of(g.pciAddress())).ifPresent(v -> out.add(v.on(subject + " row remap")));
            } else if (g.remappedRows() instanceof Reading.Failed<RemappedRows> f) {
                out.add(Finding.unknown(ID, subject + " row remap", f, "no failure, none pending"));
            }
        }
        return out;
    }

    private static Finding ecc(String subject, Reading<EccCounts> r) {
        if (!(r instanceof Reading.Present<EccCounts>(EccCounts e))) return Finding.unknown(ID, subject, r, GpuEccRule.EXPECTED);
        return GpuEccRule.counts(e).on(subject);
    }
}
