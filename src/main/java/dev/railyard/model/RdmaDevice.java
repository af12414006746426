package dev.railyard.model;

import java.util.List;

/** One device under /sys/class/infiniband (an HCA or a RoCE NIC function). */
public record RdmaDevice(
        String name,
        Reading<String> firmwareVersion,
        Reading<String> nodeGuid,
        Reading<String> boardId,
        Reading<String> hcaType,
        Reading<String> pciAddress,
        List<RdmaPort> ports) {

    public RdmaDevice {
        ports = List.copyOf(ports);
    }
}
