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
        List<RdmaPortRef> rdmaPorts,
        InfoLabels info) {

    /** The MTU a RoCE fabric netdev should carry when the spec names none: jumbo frames, end to end. */
    public static final int JUMBO_MTU = 9000;
    /** The MTU of an IPoIB interface in connected mode. */
    public static final int IPOIB_CONNECTED_MTU = 65520;

    public NetInterface {
        bondSlaves = List.copyOf(bondSlaves);
        rdmaPorts = List.copyOf(rdmaPorts);
        if (info == null) info = InfoLabels.NOT_READ;
    }

    /** An interface whose info labels were not read (tests and older captures). */
    public NetInterface(String name, Reading<Integer> mtu, Reading<Long> speedMbps, Reading<String> operState,
                        Reading<Boolean> carrier, Reading<Long> carrierChanges, Reading<String> mac,
                        Reading<String> driver, Reading<String> pciAddress, Reading<List<String>> addresses,
                        Reading<String> bondMaster, List<String> bondSlaves, Reading<String> ipoibMode,
                        List<RdmaPortRef> rdmaPorts) {
        this(name, mtu, speedMbps, operState, carrier, carrierChanges, mac, driver, pciAddress, addresses, bondMaster,
                bondSlaves, ipoibMode, rdmaPorts, InfoLabels.NOT_READ);
    }

    /**
     * What node_exporter puts in node_network_info's labels besides address and operstate, with its convention: a
     * file that is missing or unreadable (duplex on a virtual device answers EINVAL) is the empty string, and the
     * admin state is "up" or "down" from the IFF_UP bit of flags, "unknown" without flags.
     */
    public record InfoLabels(String broadcast, String duplex, String adminState, String ifalias) {
        public static final InfoLabels NOT_READ = new InfoLabels("", "", "unknown", "");
    }

    public record RdmaPortRef(String device, int port) {
        @Override
        public String toString() {
            return device + ":" + port;
        }
    }
}
