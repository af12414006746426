package dev.railyard.check;

import dev.railyard.check.rules.GpuPcieLinkRule;
import dev.railyard.model.CheckId;
import dev.railyard.model.Finding;
import dev.railyard.model.Gpu;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** gpu.pcie.link: each GPU's trained link against its maximum, judged by {@link GpuPcieLinkRule}. */
public final class GpuPcieLinkCheck implements Check {

    static final String ID = CheckId.GPU_PCIE_LINK.id();

    @Override
    public String id() {
        return ID;
    }

    @Override
    public List<Finding> run(CheckInput in) {
        List<Finding> out = new ArrayList<>();
        for (Gpu g : in.inventory().gpu().gpus()) {
            out.add(GpuPcieLinkRule.link(g.pcieLink(), Optional.of(g.pciAddress())).on(g.subject()));
        }
        return out;
    }
}
