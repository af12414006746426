package dev.railyard.model;

import java.util.List;

/**
 * A PCI function from /sys/bus/pci/devices. {@code upstreamPath} lists the bridges from the host bridge
 * (e.g. "pci0000:00") down to the device's parent, which is what PCIe affinity is computed from.
 * {@code virtualFunction} is true for an SR-IOV VF (it has a physfn link); ids are -1 when unreadable, and
 * {@code unreadableIds} then says which file and why ("sys/bus/pci/devices/X/vendor: not a number: ..."), so a
 * function whose identity is garbage is still listed and never silently taken for "not a GPU".
 */
public record PciDevice(
        String address,
        int vendorId,
        int deviceId,
        int classCode,
        Reading<String> driver,
        Reading<Integer> numaNode,
        Reading<PcieLink> link,
        List<String> upstreamPath,
        boolean virtualFunction,
        List<String> unreadableIds) {

    public static final int VENDOR_NVIDIA = 0x10de;
    public static final int VENDOR_MELLANOX = 0x15b3;

    public PciDevice {
        upstreamPath = List.copyOf(upstreamPath);
        unreadableIds = List.copyOf(unreadableIds);
    }

    /** Every id read. */
    public PciDevice(String address, int vendorId, int deviceId, int classCode, Reading<String> driver,
                     Reading<Integer> numaNode, Reading<PcieLink> link, List<String> upstreamPath,
                     boolean virtualFunction) {
        this(address, vendorId, deviceId, classCode, driver, numaNode, link, upstreamPath, virtualFunction, List.of());
    }

    /** A physical function (or a device without SR-IOV); kept so callers written before VFs were told apart compile. */
    public PciDevice(String address, int vendorId, int deviceId, int classCode, Reading<String> driver,
                     Reading<Integer> numaNode, Reading<PcieLink> link, List<String> upstreamPath) {
        this(address, vendorId, deviceId, classCode, driver, numaNode, link, upstreamPath, false);
    }

    /**
     * An unreadable vendor or class that could hide an NVIDIA GPU: whatever could be read does not rule one out.
     * GPU counts cannot be judged while such a function exists.
     */
    public boolean mayBeNvidiaGpu() {
        if (unreadableIds.isEmpty() || isNvidiaGpu()) return false;
        boolean vendorOk = vendorId == VENDOR_NVIDIA || vendorId < 0;
        boolean classOk = (classCode >> 16) == 0x03 || classCode < 0;
        return vendorOk && classOk;
    }

    /**
     * True when a vendor, device or class id could not be read and what was read still allows an RDMA-capable NIC
     * (a network function, or one of the vendors {@link #isRdmaCapable} knows): whether it needs an RDMA driver is
     * then not known, rather than "not a NIC".
     */
    public boolean mayBeRdmaNic() {
        if (unreadableIds.isEmpty() || isRdmaCapable()) return false;
        boolean classOk = (classCode >> 16) == 0x02 || classCode < 0;
        boolean vendorOk = vendorId < 0 || vendorId == VENDOR_MELLANOX || vendorId == 0x14e4 || vendorId == 0x8086
                || vendorId == 0x1077 || vendorId == 0x1924;
        return classOk && vendorOk;
    }

    /**
     * {@link #mayBeNvidiaGpu} with something pointing at a GPU: the readable half of vendor/class, or the nvidia
     * driver bound. Such a function is listed as a GPU whose readings are failed, so it keeps its place instead of
     * the next GPU taking its number; a function with nothing readable at all is not numbered among the GPUs.
     */
    public boolean likelyNvidiaGpu() {
        boolean nvidiaDriver = driver.optional().map(d -> d.equals("nvidia")).orElse(false);
        return mayBeNvidiaGpu() && (vendorId == VENDOR_NVIDIA || classCode >= 0 || nvidiaDriver);
    }

    /** Base class 0x03 (display / 3D controller) from NVIDIA. */
    public boolean isNvidiaGpu() {
        return vendorId == VENDOR_NVIDIA && (classCode >> 16) == 0x03;
    }

    /** Base class 0x02 (network) or 0x0c06 (InfiniBand controller). */
    public boolean isNetwork() {
        return (classCode >> 16) == 0x02 || (classCode >> 8) == 0x0c06;
    }

    /** NICs whose vendors ship RDMA drivers (Mellanox/NVIDIA networking, Broadcom NetXtreme-E, Intel E810, ...). */
    public boolean isRdmaCapable() {
        return isNetwork() && (vendorId == VENDOR_MELLANOX || vendorId == 0x14e4 && (deviceId & 0xff00) == 0x1700
                || vendorId == 0x8086 && (deviceId & 0xfff0) == 0x1590 || vendorId == 0x1077 || vendorId == 0x1924);
    }
}
