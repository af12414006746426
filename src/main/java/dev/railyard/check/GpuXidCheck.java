package dev.railyard.check;

import dev.railyard.check.rules.GpuXidRule;
import dev.railyard.model.CheckId;
import dev.railyard.model.Finding;
import dev.railyard.model.Gpu;
import dev.railyard.model.Reading;
import dev.railyard.model.XidEvent;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** gpu.xid: Xid errors in the kernel log, one finding per GPU and code, judged by {@link GpuXidRule}. */
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
            return hasGpus ? List.of(Finding.unknown(ID, in.node(), r, GpuXidRule.EXPECTED)) : List.of();
        }
        if (events.isEmpty()) {
            return hasGpus ? List.of(Finding.pass(ID, in.node(), "no Xid errors in the kernel log", GpuXidRule.EXPECTED))
                    : List.of();
        }
        // Xid 13 can repeat hundreds of times a second: one finding per (GPU, code), with the count and the last line.
        List<Gpu> gpus = in.inventory().gpu().gpus();
        Map<String, List<XidEvent>> byGpuAndCode = new LinkedHashMap<>();
        for (XidEvent e : events) {
            byGpuAndCode.computeIfAbsent(GpuXidRule.subject(e, gpus) + "\u0000" + e.xid(), k -> new ArrayList<>()).add(e);
        }
        List<Finding> out = new ArrayList<>();
        for (List<XidEvent> group : byGpuAndCode.values()) {
            XidEvent last = group.getLast();
            String observed = "Xid " + last.xid() + " (" + GpuXidRule.worst(group).name() + ") x" + group.size()
                    + ", last" + (last.timestamp().isEmpty() ? "" : " at " + last.timestamp()) + ": " + last.message();
            out.add(GpuXidRule.verdict(group, observed, ShellWord.of(in.node())).on(GpuXidRule.subject(last, gpus)));
        }
        return out;
    }
}
