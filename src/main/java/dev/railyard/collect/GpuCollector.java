package dev.railyard.collect;

import dev.railyard.model.GpuInventory;
import dev.railyard.model.PciDevice;
import dev.railyard.model.Reading;
import dev.railyard.platform.HostRoot;

import java.util.List;

/** GPUs through NVML on a live node; from PCI sysfs (vendor 0x10de) when NVML is unavailable or on a captured tree. */
public final class GpuCollector {

    /** NVML on a live root; PCI sysfs only on a captured tree. */
    public static GpuCollector forRoot(HostRoot root) {
        return new GpuCollector();
    }

    public GpuInventory collect(HostRoot root, List<PciDevice> pci) {
        return new GpuInventory(Reading.absent("NVML unavailable: not implemented yet"), List.of()); // TODO(helper: gpu)
    }
}
