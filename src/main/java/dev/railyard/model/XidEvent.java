package dev.railyard.model;

/**
 * One NVIDIA Xid line from the kernel log: "NVRM: Xid (PCI:0000:3b:00): 79, pid=..., GPU has fallen off the bus."
 * {@code pciAddress} is as the driver printed it ("0000:3b:00", domain:bus:device without the function);
 * {@code timestamp} is the log's own prefix as written (empty when it had none); {@code message} is the text after
 * the pid/name fields.
 */
public record XidEvent(String timestamp, String pciAddress, int xid, String message, String line) {

    /** True when this event names the GPU at a sysfs/NVML address such as "0000:3b:00.0" or "00000000:3B:00.0". */
    public boolean concerns(String gpuPciAddress) {
        return busDevice(pciAddress).equals(busDevice(gpuPciAddress));
    }

    /** "bus:device" in lower case, ignoring the domain width and the function. */
    static String busDevice(String address) {
        String a = address.toLowerCase(java.util.Locale.ROOT);
        int dot = a.lastIndexOf('.');
        if (dot > a.lastIndexOf(':')) a = a.substring(0, dot);
        String[] parts = a.split(":");
        if (parts.length < 2) return a;
        return parts[parts.length - 2] + ":" + parts[parts.length - 1];
    }
}
