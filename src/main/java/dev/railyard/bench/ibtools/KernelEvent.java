package dev.railyard.bench.ibtools;

import java.util.OptionalDouble;

/**
 * One kernel log line about GPU, NIC, PCIe or memory health other than Xid and link changes: a PCIe link narrower or
 * slower than the device can run, a driver whose probe failed, an EDAC / AER / APEI hardware error report, an NVIDIA
 * adapter that would not initialise.
 *
 * @param device the PCI address or memory controller the line names ("0000:01:00.0", "MC1"), or "" when it names none
 * @param value  the line's number where it has one: available PCIe Gb/s, or the count of memory errors reported
 */
public record KernelEvent(Kind kind, String device, String detail, OptionalDouble value, int lineNumber, String line) {

    /** The time the line carries, as it wrote it ("[ 9327.470501]", "Jan 28 16:15:20", an ISO stamp), or "". */
    public String stamp() {
        return DeviceFaultLines.stamp(line);
    }

    public enum Kind {
        /** "… available PCIe bandwidth (8.0 GT/s PCIe x8 link)": the device got the link it can run. */
        PCIE_FULL,
        /** "… limited by 8.0 GT/s PCIe x1 link … (capable of … x16 link)". */
        PCIE_LIMITED,
        PROBE_FAILED,
        MEMORY_CORRECTED,
        MEMORY_UNCORRECTED,
        MACHINE_CHECK,
        PCIE_CORRECTED,
        PCIE_UNCORRECTED,
        HARDWARE_ERROR_CORRECTED,
        HARDWARE_ERROR_FATAL,
        GPU_INIT_FAILED,
        /** A NIC stopped transmitting: "NETDEV WATCHDOG … transmit queue N timed out", e1000e/igb "Unit Hang". */
        NIC_TX_HANG,
        /** The block layer failed a read or write: "I/O error, dev nvme0n1, sector …", "Buffer I/O error". */
        BLOCK_IO_ERROR,
        /** An NVMe controller timed out or dropped: "I/O 39 QID 3 timeout", "controller is down; will reset". */
        NVME_TIMEOUT,
        /** A GPU other than NVIDIA's hung and was reset: amdgpu "ring gfx timeout", "GPU reset begin!". */
        GPU_HANG,
        /** NVLink trouble the driver reports without an Xid number. */
        NVLINK_ERROR,
        /** An NVSwitch error: "SXid (PCI:…): 12028". */
        NVSWITCH_ERROR
    }
}
