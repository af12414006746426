package dev.railyard.model;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the cluster should look like: nodes, expected GPUs, networks with per-node bindings, and thresholds.
 * Read by {@code spec.SpecReader} from YAML (schema: docs/spec.md); {@code source} is the file it came from.
 */
public record ClusterSpec(
        String cluster,
        String source,
        List<Node> nodes,
        Optional<Gpus> gpus,
        List<Network> networks,
        Expect expect,
        Optional<Slurm> slurm,
        Optional<String> sshUser,
        SshOptions ssh,
        Optional<Agent> agent) {

    public ClusterSpec {
        nodes = List.copyOf(nodes);
        networks = List.copyOf(networks);
    }

    /** A spec without an {@code agent} key: the agent's flags and defaults decide. */
    public ClusterSpec(String cluster, String source, List<Node> nodes, Optional<Gpus> gpus, List<Network> networks,
                       Expect expect, Optional<Slurm> slurm, Optional<String> sshUser, SshOptions ssh) {
        this(cluster, source, nodes, gpus, networks, expect, slurm, sshUser, ssh, Optional.empty());
    }

    /** Where every node's agent listens: {@code host} empty means every address. */
    public record Agent(String host, int port) {
        /** As --listen takes it. */
        public String listen() {
            return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
        }
    }

    /** A spec without the bring-up keys that only {@code render} reads, and without an {@code ssh} section. */
    public ClusterSpec(String cluster, String source, List<Node> nodes, Optional<Gpus> gpus, List<Network> networks,
                       Expect expect) {
        this(cluster, source, nodes, gpus, networks, expect, Optional.empty(), Optional.empty());
    }

    /** A spec without an {@code ssh} section. */
    public ClusterSpec(String cluster, String source, List<Node> nodes, Optional<Gpus> gpus, List<Network> networks,
                       Expect expect, Optional<Slurm> slurm, Optional<String> sshUser) {
        this(cluster, source, nodes, gpus, networks, expect, slurm, sshUser, SshOptions.none());
    }

    /**
     * How to reach one node over ssh: the spec's {@code ssh} section with the node's own on top; without an
     * {@code ssh.user} anywhere, {@code ssh_user} (the user of rendered ssh_config entries) is the login user too.
     */
    public SshOptions sshFor(Node node) {
        SshOptions merged = ssh.overriddenBy(node.ssh());
        if (merged.user().isPresent() || sshUser.isEmpty()) return merged;
        return new SshOptions(sshUser, merged.port(), merged.identityFile(), merged.configFile(),
                merged.knownHosts());
    }

    public Optional<Node> node(String name) {
        return nodes.stream().filter(n -> n.name().equals(name)).findFirst();
    }

    /**
     * The node a machine of this hostname is: the node of that name, else (a hostname with its domain, where the
     * spec names nodes by their short name as Slurm and {@code railyard init} do) the node of the short name.
     */
    public Optional<Node> nodeForHost(String hostname) {
        String h = hostname.strip();
        return node(h).or(() -> node(shortHostname(h)));
    }

    /** The hostname up to its first dot ({@code hostname -s}). */
    public static String shortHostname(String hostname) {
        int dot = hostname.indexOf('.');
        return dot > 0 ? hostname.substring(0, dot) : hostname;
    }

    public Optional<Network> network(String name) {
        return networks.stream().filter(n -> n.name().equals(name)).findFirst();
    }

    /**
     * The GPUs one node should have: its own {@code gpus} when it has one (mixed clusters such as T4 + P4),
     * else the cluster-wide ones. A node override without driver/cuda pins inherits the cluster's pins.
     */
    public Optional<Gpus> gpusFor(String nodeName) {
        Optional<Gpus> own = node(nodeName).flatMap(Node::gpus);
        if (own.isEmpty()) return gpus;
        Gpus o = own.get();
        return Optional.of(new Gpus(o.model(), o.perNode(),
                o.driver().or(() -> gpus.flatMap(Gpus::driver)),
                o.cuda().or(() -> gpus.flatMap(Gpus::cuda))));
    }

    /**
     * A machine: {@code address} is how to reach it (management IPv4 or a resolvable host name). {@code osFamily}
     * decides how network files are rendered; {@code disableNetdevs} are NICs that must stay down (a fabric cabled on fewer ports than the card has);
     * {@code ssh} is its own ssh section (what it sets wins over the spec's); {@code java} is the home of a JDK 25
     * the node has, which runs Railyard there when no bundle is built for the node's machine.
     */
    public record Node(String name, String address, Optional<String> bmc, Optional<Gpus> gpus, OsFamily osFamily,
                       List<String> disableNetdevs, SshOptions ssh, Optional<String> java) {

        public Node {
            disableNetdevs = List.copyOf(disableNetdevs);
        }

        /** A node whose own JDK is not named. */
        public Node(String name, String address, Optional<String> bmc, Optional<Gpus> gpus, OsFamily osFamily,
                    List<String> disableNetdevs, SshOptions ssh) {
            this(name, address, bmc, gpus, osFamily, disableNetdevs, ssh, Optional.empty());
        }

        public Node(String name, String address, Optional<String> bmc, Optional<Gpus> gpus) {
            this(name, address, bmc, gpus, OsFamily.UBUNTU, List.of());
        }

        /** A node without its own {@code ssh} section. */
        public Node(String name, String address, Optional<String> bmc, Optional<Gpus> gpus, OsFamily osFamily,
                    List<String> disableNetdevs) {
            this(name, address, bmc, gpus, osFamily, disableNetdevs, SshOptions.none());
        }
    }

    /** Ubuntu-family hosts get netplan; RHEL-family hosts get NetworkManager keyfiles. */
    public enum OsFamily { UBUNTU, RHEL }

    /** Slurm settings for the rendered node, partition and GRES lines; absent keys take the defaults. */
    public record Slurm(String partition, Optional<String> gresType) {
        public static final String DEFAULT_PARTITION = "gpu";
    }

    /** Expected GPUs per node; driver and CUDA are optional pins. */
    public record Gpus(String model, int perNode, Optional<String> driver, Optional<String> cuda) {}

    public enum Role { MANAGEMENT, COMPUTE, STORAGE }

    public enum LinkLayer { ETHERNET, INFINIBAND }

    public enum IpoibMode { DATAGRAM, CONNECTED }

    /** One network; {@code bind} keeps the file's node order (node name to binding). */
    public record Network(
            String name,
            Role role,
            Optional<LinkLayer> linkLayer,
            Optional<Double> rateGbps,
            Optional<Integer> mtu,
            Optional<String> subnet,
            Optional<IpoibMode> ipoibMode,
            Map<String, Binding> bind,
            Optional<String> subnetManager) {

        public Network {
            bind = Collections.unmodifiableMap(new LinkedHashMap<>(bind));
        }

        public Network(String name, Role role, Optional<LinkLayer> linkLayer, Optional<Double> rateGbps,
                       Optional<Integer> mtu, Optional<String> subnet, Optional<IpoibMode> ipoibMode,
                       Map<String, Binding> bind) {
            this(name, role, linkLayer, rateGbps, mtu, subnet, ipoibMode, bind, Optional.empty());
        }

        /**
         * Whether the spec puts RDMA on this network: InfiniBand, or a binding that names an RDMA port. A network
         * that does neither is TCP only, and advice about RDMA ports or RoCE jumbo frames does not apply to it.
         */
        public boolean carriesRdma() {
            return linkLayer.filter(l -> l == LinkLayer.INFINIBAND).isPresent()
                    || bind.values().stream().anyMatch(b -> b.rdma().isPresent());
        }
    }

    /** Where a network lands on one node: the netdev, the RDMA device:port and the bare IPv4 address. */
    public record Binding(String netdev, Optional<NetInterface.RdmaPortRef> rdma, Optional<String> address) {}

    /**
     * Pass/fail thresholds. Defaults follow the seeds and NVIDIA's multi-node certification bar.
     * {@code ncclBusbwGBps} is in GB/s as nccl-tests prints it; {@code storageSeqMBps} in MB/s; {@code tcpGbps} in
     * Gb/s (10^9 bits, as iperf3) and {@code tcpLatencyUs} one-way µs (as sockperf) for {@code bench tcp}.
     */
    public record Expect(
            double rdmaBwEfficiency,
            double rdmaLatencyUs,
            double gpuTempWarnC,
            long netBufferBytes,
            Optional<Double> ncclBusbwGBps,
            Optional<Double> storageSeqMBps,
            Optional<Double> tcpGbps,
            Optional<Double> tcpLatencyUs) {

        /** Without the TCP floors, which few specs set. */
        public Expect(double rdmaBwEfficiency, double rdmaLatencyUs, double gpuTempWarnC, long netBufferBytes,
                      Optional<Double> ncclBusbwGBps, Optional<Double> storageSeqMBps) {
            this(rdmaBwEfficiency, rdmaLatencyUs, gpuTempWarnC, netBufferBytes, ncclBusbwGBps, storageSeqMBps,
                    Optional.empty(), Optional.empty());
        }

        public static Expect defaults() {
            return new Expect(0.90, 2.0, 85, 268_435_456L, Optional.empty(), Optional.empty());
        }
    }
}
