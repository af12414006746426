package dev.railyard.model;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the cluster should look like: nodes, expected GPUs, networks with per-node bindings, and thresholds.
 * Read by {@code spec.SpecReader} from YAML; {@code source} is the file it came from (for messages).
 */
public record ClusterSpec(
        String cluster,
        String source,
        List<Node> nodes,
        Optional<Gpus> gpus,
        List<Network> networks,
        Expect expect) {

    public ClusterSpec {
        nodes = List.copyOf(nodes);
        networks = List.copyOf(networks);
    }

    public Optional<Node> node(String name) {
        return nodes.stream().filter(n -> n.name().equals(name)).findFirst();
    }

    public record Node(String name, String address, Optional<String> bmc) {}

    /** Expected GPUs on every node; driver and CUDA are optional pins. */
    public record Gpus(String model, int perNode, Optional<String> driver, Optional<String> cuda) {}

    public enum Role { MANAGEMENT, COMPUTE, STORAGE }

    public enum LinkLayer { ETHERNET, INFINIBAND }

    public enum IpoibMode { DATAGRAM, CONNECTED }

    public record Network(
            String name,
            Role role,
            Optional<LinkLayer> linkLayer,
            Optional<Double> rateGbps,
            Optional<Integer> mtu,
            Optional<String> subnet,
            Optional<IpoibMode> ipoibMode,
            Map<String, Binding> bind) {

        public Network {
            bind = Map.copyOf(bind);
        }
    }

    /** Where a network lands on one node: the netdev, the RDMA device:port and the address (CIDR or bare). */
    public record Binding(String netdev, Optional<NetInterface.RdmaPortRef> rdma, Optional<String> address) {}

    /** Pass/fail thresholds. Defaults follow the seeds and NVIDIA's multi-node certification bar. */
    public record Expect(
            double rdmaBwEfficiency,
            double rdmaLatencyUs,
            double gpuTempWarnC,
            long netBufferBytes,
            Optional<Double> ncclBusbwGBps,
            Optional<Double> storageSeqMBps) {

        public static Expect defaults() {
            return new Expect(0.90, 2.0, 85, 268_435_456L, Optional.empty(), Optional.empty());
        }
    }
}
