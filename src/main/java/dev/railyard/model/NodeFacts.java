package dev.railyard.model;

import java.util.List;
import java.util.Map;

/**
 * What the cluster checks compare across nodes, taken from each node's inventory: software versions, HCA firmware
 * per RDMA device, every RDMA port's link layer and P_Keys, and every netdev's MTU, state and addresses.
 */
public record NodeFacts(
        String node,
        String hostname,
        Reading<String> driverVersion,
        Reading<String> cudaVersion,
        Reading<String> ncclVersion,
        Map<String, Reading<String>> rdmaFirmware,
        List<Netdev> netdevs,
        List<Port> rdmaPorts) {

    public NodeFacts {
        rdmaFirmware = Map.copyOf(rdmaFirmware);
        netdevs = List.copyOf(netdevs);
        rdmaPorts = List.copyOf(rdmaPorts);
    }

    /** Facts without RDMA ports: no P_Key is judged. */
    public NodeFacts(String node, String hostname, Reading<String> driverVersion, Reading<String> cudaVersion,
                     Reading<String> ncclVersion, Map<String, Reading<String>> rdmaFirmware, List<Netdev> netdevs) {
        this(node, hostname, driverVersion, cudaVersion, ncclVersion, rdmaFirmware, netdevs, List.of());
    }

    /** One netdev as the node saw it; addresses in CIDR form ("10.0.0.1/24"). */
    public record Netdev(String name, Reading<Integer> mtu, Reading<String> operState, Reading<List<String>> addresses) {}

    /** One RDMA port: its link layer ("InfiniBand") and the non-zero entries of its P_Key table. */
    public record Port(String device, int port, Reading<String> linkLayer, Reading<List<Integer>> pkeys) {

        public String ref() {
            return device + ":" + port;
        }
    }
}
