package dev.railyard.check;

import dev.railyard.model.CheckId;
import dev.railyard.model.Finding;
import dev.railyard.model.Gpu;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;

import java.util.ArrayList;
import java.util.List;

/**
 * gpu.nvlink: the node's GPUs should all have as many active NVLinks as the best-connected one; a GPU with fewer
 * is cut off from its peers (all-reduce falls back to PCIe). GPUs without NVLink at all (PCIe cards) are not judged.
 */
public final class GpuNvlinkCheck implements Check {

    static final String ID = CheckId.GPU_NVLINK.id();

    @Override
    public String id() {
        return ID;
    }

    @Override
    public List<Finding> run(CheckInput in) {
        List<Gpu> gpus = in.inventory().gpu().gpus();
        long expected = gpus.stream().mapToLong(g -> active(g.nvlinks())).max().orElse(0);
        // the bar comes from the GPUs whose links read: with none, there is no number to hold a GPU to
        boolean anyRead = gpus.stream().anyMatch(g -> g.nvlinks() instanceof Reading.Present);
        String bar = anyRead ? expected + " active links"
                : "as many active links as the best-connected GPU (no GPU's links could be read)";
        List<Finding> out = new ArrayList<>();
        for (Gpu g : gpus) {
            String subject = g.subject();
            Reading<List<Gpu.NvLink>> r = g.nvlinks();
            if (!(r instanceof Reading.Present<List<Gpu.NvLink>>(List<Gpu.NvLink> links))) {
                out.add(Finding.unknown(ID, subject, r, bar));
                continue;
            }
            long up = active(r);
            if (links.isEmpty() && expected == 0) continue;
            String observed = up + " of " + links.size() + " links active";
            if (up < expected) {
                List<Integer> down = links.stream().filter(l -> !l.active()).map(Gpu.NvLink::link).toList();
                out.add(Finding.of(ID, Severity.FAIL, subject, observed + ", down: " + down, expected + " active links",
                        Fix.lines(Fix.note("NVSwitch systems need the fabric manager; links still down after a reboot "
                                        + "need hardware inspection"),
                                "systemctl enable --now nvidia-fabricmanager", "nvidia-smi nvlink -s -i " + g.index())));
            } else {
                out.add(Finding.pass(ID, subject, observed, expected + " active links"));
            }
        }
        return out;
    }

    private static long active(Reading<List<Gpu.NvLink>> r) {
        return r.optional().map(l -> l.stream().filter(Gpu.NvLink::active).count()).orElse(0L);
    }
}
