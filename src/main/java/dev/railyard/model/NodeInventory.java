package dev.railyard.model;

import java.time.Instant;
import java.util.List;

/** Everything the collectors found on one node. Plain data; checks and reports read it, nothing writes it. */
public record NodeInventory(
        String hostname,
        Instant takenAt,
        String root,
        HostInfo host,
        List<PciDevice> pciDevices,
        GpuInventory gpu,
        List<RdmaDevice> rdmaDevices,
        List<NetInterface> interfaces,
        PcieTopology topology,
        Reading<List<XidEvent>> xidEvents) {

    /** The hostname when proc/sys/kernel/hostname cannot be read. */
    public static final String UNKNOWN_HOSTNAME = "unknown";

    public NodeInventory {
        pciDevices = List.copyOf(pciDevices);
        rdmaDevices = List.copyOf(rdmaDevices);
        interfaces = List.copyOf(interfaces);
    }
}
