package dev.railyard.check;

import dev.railyard.model.CheckId;
import dev.railyard.model.Finding;
import dev.railyard.model.Gpu;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;
import dev.railyard.model.XidEvent;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** gpu.xid: Xid errors in the kernel log, one finding per GPU and code, severity and action from {@link XidCatalog}. */
public final class GpuXidCheck implements Check {

    static final String ID = CheckId.GPU_XID.id();

    @Override
    public String id() {
        return ID;
    }

    @Override
    public List<Finding> run(CheckInput in) {
        Reading<List<XidEvent>> r = in.inventory().xidEvents();
        boolean hasGpus = in.gpuCount() > 0;
        if (!(r instanceof Reading.Present<List<XidEvent>>(List<XidEvent> events))) {
            return hasGpus ? List.of(Finding.unknown(ID, in.node(), r, "no Xid errors")) : List.of();
        }
        if (events.isEmpty()) {
            return hasGpus ? List.of(Finding.pass(ID, in.node(), "no Xid errors in the kernel log", "no Xid errors"))
                    : List.of();
        }
        // Xid 13 can repeat hundreds of times a second: one finding per (GPU, code), with the count and the last line.
        Map<String, List<XidEvent>> byGpuAndCode = new LinkedHashMap<>();
        for (XidEvent e : events) {
            byGpuAndCode.computeIfAbsent(subject(in, e) + "\u0000" + e.xid(), k -> new ArrayList<>()).add(e);
        }
        List<Finding> out = new ArrayList<>();
        for (List<XidEvent> group : byGpuAndCode.values()) {
            XidEvent last = group.getLast();
            XidCatalog.Entry entry = group.stream().map(e -> XidCatalog.judge(e.xid(), e.message()))
                    .reduce((a, b) -> b.severity().atLeast(a.severity()) ? b : a).orElseThrow();
            String observed = "Xid " + last.xid() + " (" + entry.name() + ") x" + group.size() + ", last"
                    + (last.timestamp().isEmpty() ? "" : " at " + last.timestamp()) + ": " + last.message();
            String fix = entry.remediation(ShellWord.of(gpuIndex(in, last)), ShellWord.of(in.node()));
            out.add(Finding.of(ID, entry.severity(), subject(in, last), observed, "no Xid errors",
                    entry.severity() == Severity.INFO ? "" : fix));
        }
        return out;
    }

    /**
     * The GPU as every other gpu.* finding names it (its normalised address, "GPU1 (0000:00:07.0)"), not as the
     * kernel line prints it ("0000:00:07"): the agent keys health on the subject, and a clear names that.
     */
    private static String subject(CheckInput in, XidEvent e) {
        return in.inventory().gpu().gpus().stream().filter(g -> e.concerns(g.pciAddress())).findFirst()
                .map(Gpu::subject).orElse("GPU at PCI:" + e.pciAddress());
    }

    private static String gpuIndex(CheckInput in, XidEvent e) {
        return in.inventory().gpu().gpus().stream().filter(g -> e.concerns(g.pciAddress())).findFirst()
                .map(Gpu::index).map(String::valueOf).orElse(XidCatalog.busId(e.pciAddress()));
    }
}
