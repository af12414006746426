package dev.railyard.diagnose;

import dev.railyard.bench.ibtools.KernelEvent;
import dev.railyard.bench.ibtools.KernelLogParser;
import dev.railyard.bench.ibtools.LinkEvent;
import dev.railyard.check.rules.GpuXidRule;
import dev.railyard.model.XidEvent;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * A kernel log as diagnose judges it, kept as it is read: the last state of each link, the first line and count of
 * each Xid per GPU, the first "fallen off the bus", and each kind of device event per device with its first and last
 * line, count and details. Its size depends on how many distinct things the log says, not on how long it is: 1,893
 * copies of one Xid are one entry with a count.
 */
final class KernelLogSummary implements KernelLogParser.Sink {

    /**
     * One Xid code on one GPU: its first line, where that stands, how often it came, and the line the catalog judges
     * worst (the last of the worst, as the node check takes it from all of them).
     */
    record Xid(XidEvent first, int lineNumber, int count, XidEvent worst) {}

    /** Beyond this many distinct details a group stops collecting them (a detail carries a queue or sector). */
    private static final int MAX_DETAILS = 16;

    final Map<String, LinkEvent> lastLink = new LinkedHashMap<>();
    final Map<String, Xid> xids = new LinkedHashMap<>();
    String fallen;
    int fallenLine;
    final Map<String, KernelEventVerdicts.Group> groups = new LinkedHashMap<>();
    final Map<String, KernelEvent> pcie = new LinkedHashMap<>();
    int xidLines, linkLines;
    double correctedMemory;
    long lines;

    @Override
    public void link(LinkEvent e) {
        linkLines++;
        lastLink.put(e.device() + "/" + e.port(), e);
    }

    @Override
    public void xid(XidEvent x, int lineNumber) {
        xidLines++;
        xids.merge(x.pciAddress() + "/" + x.xid(), new Xid(x, lineNumber, 1, x),
                (a, b) -> new Xid(a.first(), a.lineNumber(), a.count() + 1, GpuXidRule.worse(a.worst(), x)));
    }

    @Override
    public void fallen(String line, int lineNumber) {
        if (fallen == null) {
            fallen = line;
            fallenLine = lineNumber;
        }
    }

    @Override
    public void event(KernelEvent e) {
        if (e.kind() == KernelEvent.Kind.PCIE_FULL || e.kind() == KernelEvent.Kind.PCIE_LIMITED) {
            pcie.putIfAbsent(e.device(), e);
        }
        if (e.kind() == KernelEvent.Kind.MEMORY_CORRECTED) correctedMemory += e.value().orElse(0);
        if (e.kind() == KernelEvent.Kind.PCIE_FULL) return;
        String key = e.kind() + "/" + e.device();
        KernelEventVerdicts.Group g = groups.get(key);
        double v = e.value().orElse(0);
        Set<String> details = new LinkedHashSet<>(g == null ? Set.of() : g.details());
        if (details.size() < MAX_DETAILS) details.add(e.detail());
        groups.put(key, g == null ? new KernelEventVerdicts.Group(e, e, 1, v, details)
                : new KernelEventVerdicts.Group(g.first(), e, g.count() + 1, g.total() + v, details));
    }

    /** Whether any memory event (EDAC) was seen, which makes a machine check say nothing more. */
    boolean memoryEvents() {
        return groups.values().stream().anyMatch(g -> g.first().kind() == KernelEvent.Kind.MEMORY_CORRECTED
                || g.first().kind() == KernelEvent.Kind.MEMORY_UNCORRECTED);
    }
}
