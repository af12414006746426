package dev.railyard.model;

import java.util.List;

/** One interface under /sys/class/net, with the RDMA ports it carries (RoCE netdev or IPoIB child). */
public record NetInterface(
        String name,
        Reading<Integer> mtu,
        Reading<Long> speedMbps,
        Reading<String> operState,
        Reading<Boolean> carrier,
        Reading<Long> carrierChanges,
        Reading<String> mac,
        Reading<String> driver,
        Reading<String> pciAddress,
        Reading<List<String>> addresses,
        Reading<String> bondMaster,
        List<String> bondSlaves,
        Reading<String> ipoibMode,
        List<RdmaPortRef> rdmaPorts) {

    public NetInterface {
        bondSlaves = List.copyOf(bondSlaves);
        rdmaPorts = List.copyOf(rdmaPorts);
    }

    public record RdmaPortRef(String device, int port) {
        @Override
        public String toString() {
            return device + ":" + port;
        }
    }
}
