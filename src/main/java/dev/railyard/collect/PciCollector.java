package dev.railyard.collect;

import dev.railyard.model.PciDevice;
import dev.railyard.platform.HostRoot;

import java.util.List;

/** PCI functions from sys/bus/pci/devices: ids, class, driver, NUMA node, link, and the bridges above each. */
public final class PciCollector implements Collector<List<PciDevice>> {
    @Override
    public List<PciDevice> collect(HostRoot root) {
        return List.of(); // TODO(helper: pci+topology+host)
    }
}
