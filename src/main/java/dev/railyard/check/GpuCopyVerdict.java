package dev.railyard.check;

import dev.railyard.model.CheckId;
import dev.railyard.model.Finding;
import dev.railyard.model.GpuCopyResult;
import dev.railyard.model.Severity;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * bench.gpu.pcie: a GPU whose host copies reach less than half of what its slot's maximum generation and width
 * allow has almost always trained down (a Gen3 or x8 link on a Gen5 x16 slot: reseat the GPU or its riser).
 */
public final class GpuCopyVerdict {

    public static final String ID = CheckId.BENCH_GPU_PCIE.id();
    /** Good links reach 75-90 % of the theoretical rate with pinned memory; half is a conservative line. */
    static final double MIN_FRACTION = 0.5;

    private GpuCopyVerdict() {
    }

    public static List<Finding> judge(GpuCopyResult.Run run) {
        List<Finding> out = new ArrayList<>();
        for (GpuCopyResult g : run.gpus()) {
            String subject = "GPU" + g.device() + " " + g.pciBusId();
            String observed = String.format(Locale.ROOT, "H2D %.1f GB/s, D2H %.1f GB/s", g.h2dGBps(), g.d2hGBps());
            if (g.pcieMaxGBps().isEmpty()) {
                out.add(new Finding(ID, Severity.UNKNOWN, subject, observed, "PCIe link of the slot unknown",
                        Fix.lines(Fix.note("run it on the node itself (not --root), where the PCIe link can be read:"),
                                "railyard bench gpu")));
                continue;
            }
            double max = g.pcieMaxGBps().get();
            double worst = Math.min(g.h2dGBps(), g.d2hGBps());
            String expected = String.format(Locale.ROOT, ">= %.1f GB/s (half of %s = %.1f GB/s)", MIN_FRACTION * max,
                    g.pcieMaxLink().orElse("?"), max);
            if (worst >= MIN_FRACTION * max) {
                out.add(Finding.pass(ID, subject, observed, expected));
            } else {
                out.add(new Finding(ID, Severity.FAIL, subject, observed, expected,
                        Fix.lines(Fix.note("the link trained below its maximum; if it stays there under load, reseat "
                                        + "the GPU or riser, or move it to a full x16 slot:"),
                                "nvidia-smi --query-gpu=index,pci.bus_id,pcie.link.gen.current,pcie.link.gen.max,"
                                        + "pcie.link.width.current,pcie.link.width.max --format=csv")));
            }
        }
        return out;
    }
}
