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
        Reading<List<XidEvent>> xidEvents,
        List<Unlisted> unlisted) {

    /** The hostname when proc/sys/kernel/hostname cannot be read. */
    public static final String UNKNOWN_HOSTNAME = "unknown";

    public NodeInventory {
        pciDevices = List.copyOf(pciDevices);
        rdmaDevices = List.copyOf(rdmaDevices);
        interfaces = List.copyOf(interfaces);
        unlisted = List.copyOf(unlisted);
    }

    /** An inventory whose class directories were all listed. */
    public NodeInventory(String hostname, Instant takenAt, String root, HostInfo host, List<PciDevice> pciDevices,
                         GpuInventory gpu, List<RdmaDevice> rdmaDevices, List<NetInterface> interfaces,
                         PcieTopology topology, Reading<List<XidEvent>> xidEvents) {
        this(hostname, takenAt, root, host, pciDevices, gpu, rdmaDevices, interfaces, topology, xidEvents, List.of());
    }

    /** Why a subsystem's class directory could not be listed, if it could not. */
    public java.util.Optional<Unlisted> unlisted(Unlisted.Subsystem subsystem) {
        return unlisted.stream().filter(u -> u.subsystem() == subsystem).findFirst();
    }
}
