package dev.railyard.report;

import dev.railyard.model.HostInfo;
import dev.railyard.model.HostInfo.NvmeDevice;
import dev.railyard.model.Reading;
import dev.railyard.model.XidEvent;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** The tuning knobs the seeds set by hand, watched modules, NVMe drives and the kernel log's Xid count. */
final class HostSection {

    private HostSection() {
    }

    static void appendTo(StringBuilder out, HostInfo h, Reading<List<XidEvent>> xids) {
        out.append("Host\n");
        out.append("  memlock    ").append(ReadingText.of(h.memlock(),
                m -> m.unlimited() ? "unlimited" : m.bytes() + " bytes (" + ReadingText.bytes(m.bytes()) + ")"))
                .append('\n');
        out.append("  rmem_max   ").append(ReadingText.of(h.rmemMax(), HostSection::bufferSize)).append('\n');
        out.append("  wmem_max   ").append(ReadingText.of(h.wmemMax(), HostSection::bufferSize)).append('\n');
        out.append("  governors  ").append(ReadingText.of(h.cpuGovernors(), HostSection::governors)).append('\n');
        out.append("  modules    ").append(ReadingText.of(h.modules(), HostSection::modules)).append('\n');
        out.append("  Xid events ").append(ReadingText.of(xids, HostSection::xids)).append('\n');
        out.append("  NVMe (").append(h.nvme().size()).append(")").append(h.nvme().isEmpty() ? "   none found" : "")
                .append('\n');
        for (NvmeDevice d : h.nvme()) {
            out.append("    ").append(d.name())
                    .append("  ").append(ReadingText.of(d.model()))
                    .append("  serial ").append(ReadingText.of(d.serial()))
                    .append("  fw ").append(ReadingText.of(d.firmware()))
                    .append("  transport ").append(ReadingText.of(d.transport()))
                    .append("  pci ").append(ReadingText.of(d.pciAddress()))
                    .append("  ").append(ReadingText.of(d.sizeBytes(), ReadingText::decimalBytes)).append('\n');
        }
    }

    private static String bufferSize(long bytes) {
        return bytes + " (" + ReadingText.bytes(bytes) + ")";
    }

    /** "performance x64", or "powersave x60, performance x4" on a mixed node. */
    private static String governors(Map<String, Integer> counts) {
        return counts.entrySet().stream().map(e -> e.getKey() + " x" + e.getValue()).collect(Collectors.joining(", "));
    }

    private static String modules(Map<String, Boolean> loaded) {
        String yes = loaded.entrySet().stream().filter(Map.Entry::getValue).map(Map.Entry::getKey)
                .collect(Collectors.joining(" "));
        String no = loaded.entrySet().stream().filter(e -> !e.getValue()).map(Map.Entry::getKey)
                .collect(Collectors.joining(" "));
        return "loaded: " + (yes.isEmpty() ? "none" : yes) + "; not loaded: " + (no.isEmpty() ? "none" : no);
    }

    /** "3 (Xid 48 x1, 63 x1, 94 x1 on 0000:3b:00)"; the details are for railyard check gpu.xid. */
    private static String xids(List<XidEvent> events) {
        if (events.isEmpty()) return "none";
        Map<Integer, Long> byCode = new TreeMap<>(events.stream()
                .collect(Collectors.groupingBy(XidEvent::xid, Collectors.counting())));
        String codes = byCode.entrySet().stream().map(e -> e.getKey() + " x" + e.getValue())
                .collect(Collectors.joining(", "));
        String gpus = events.stream().map(XidEvent::pciAddress).distinct().sorted().collect(Collectors.joining(","));
        return events.size() + " (Xid " + codes + " on " + gpus + "; see railyard check --only gpu.xid)";
    }
}
