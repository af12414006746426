package dev.railyard.model;

/** One NVIDIA Xid line from the kernel log: "NVRM: Xid (PCI:0000:3b:00): 79, pid=..., GPU has fallen off the bus." */
public record XidEvent(String timestamp, String pciAddress, int xid, String message, String line) {}
