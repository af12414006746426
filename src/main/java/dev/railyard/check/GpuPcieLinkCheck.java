package dev.railyard.check;

import dev.railyard.model.CheckId;
import dev.railyard.model.Finding;
import dev.railyard.model.Gpu;
import dev.railyard.model.PcieLink;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;

import java.util.ArrayList;
import java.util.List;

/**
 * gpu.pcie.link: trained width below the maximum is WARN (a riser, slot or seating problem). A generation below the
 * maximum is only INFO: idle GPUs drop to Gen1 to save power, so it has to be re-read under load to mean anything.
 */
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
            String subject = g.subject();
            Reading<PcieLink> r = g.pcieLink();
            if (!(r instanceof Reading.Present<PcieLink>(PcieLink l))) {
                out.add(Finding.unknown(ID, subject, r, "max generation and width"));
                continue;
            }
            String observed = "Gen" + l.currentGen() + " x" + l.currentWidth();
            String expected = "Gen" + l.maxGen() + " x" + l.maxWidth();
            if (l.currentWidth() < l.maxWidth()) {
                out.add(Finding.of(ID, Severity.WARN, subject, observed, expected,
                        Fix.lines(Fix.note("reseat the GPU or riser and check the slot's wiring"),
                                "lspci -vv -s " + ShellWord.of(g.pciAddress()) + " | grep -E 'LnkCap|LnkSta'")));
            } else if (l.currentGen() < l.maxGen()) {
                out.add(Finding.of(ID, Severity.INFO, subject, observed, expected,
                        Fix.lines(Fix.note("idle GPUs downtrain to save power; look again under load before acting"),
                                "railyard bench gpu")));
            } else {
                out.add(Finding.pass(ID, subject, observed, expected));
            }
        }
        return out;
    }
}
