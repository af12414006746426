package dev.railyard.bench.ibtools;

import dev.railyard.model.XidEvent;

import java.util.List;

/** What a dmesg / journalctl -k capture says about RDMA links and NVIDIA GPUs. */
public record KernelLog(List<LinkEvent> linkEvents, List<XidEvent> xids, List<String> fallenOffBus) {
    public KernelLog {
        linkEvents = List.copyOf(linkEvents);
        xids = List.copyOf(xids);
        fallenOffBus = List.copyOf(fallenOffBus);
    }
}
