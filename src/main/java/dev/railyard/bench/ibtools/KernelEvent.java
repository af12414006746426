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
        GPU_INIT_FAILED
    }
}
