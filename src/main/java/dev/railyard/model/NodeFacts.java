package dev.railyard.model;

import java.util.List;
import java.util.Map;

/**
 * What the cluster checks compare across nodes, taken from each node's inventory: software versions, HCA firmware
 * per RDMA device, and every netdev's MTU, state and addresses.
 */
public record NodeFacts(
        String node,
        String hostname,
        Reading<String> driverVersion,
        Reading<String> cudaVersion,
        Reading<String> ncclVersion,
        Map<String, Reading<String>> rdmaFirmware,
        List<Netdev> netdevs) {

    public NodeFacts {
        rdmaFirmware = Map.copyOf(rdmaFirmware);
        netdevs = List.copyOf(netdevs);
    }

    /** One netdev as the node saw it; addresses in CIDR form ("10.0.0.1/24"). */
    public record Netdev(String name, Reading<Integer> mtu, Reading<String> operState, Reading<List<String>> addresses) {}
}
