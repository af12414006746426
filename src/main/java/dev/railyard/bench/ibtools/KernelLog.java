package dev.railyard.bench.ibtools;

import dev.railyard.model.XidEvent;

import java.util.List;

/**
 * What a dmesg / journalctl -k capture says about RDMA links, NVIDIA GPUs, PCIe and memory; {@code lines} is how many
 * non-blank lines were read, so a clean log can say how much it covered.
 */
public record KernelLog(List<LinkEvent> linkEvents, List<XidEvent> xids, List<String> fallenOffBus,
                        List<KernelEvent> events, int lines) {
    public KernelLog {
        linkEvents = List.copyOf(linkEvents);
        xids = List.copyOf(xids);
        fallenOffBus = List.copyOf(fallenOffBus);
        events = List.copyOf(events);
    }

    public KernelLog(List<LinkEvent> linkEvents, List<XidEvent> xids, List<String> fallenOffBus) {
        this(linkEvents, xids, fallenOffBus, List.of(), 0);
    }
}
