package dev.railyard.check;

import dev.railyard.Jargon;
import dev.railyard.model.ClusterSpec;
import dev.railyard.model.Finding;
import dev.railyard.model.NodeFacts;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;
import dev.railyard.spec.SpecReader;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every branch of the cluster checks (addresses, MTU, versions, network separation) that gives a fix, reached on the
 * example spec of two V100 nodes on two RoCE rails with its facts varied, gives lines to run as they are: "# on NODE:"
 * then that node's commands, "# " lines for what is edited in the spec. Every failure is listed at once.
 */
class ClusterFixesTest {

    private static final String YAML = read("examples/s1-homelab-v100-roce.yaml");
    private static final ClusterSpec SPEC = new SpecReader().read("s1.yaml", YAML);

    private final List<String> problems = new ArrayList<>();
    private final Set<String> reached = new TreeSet<>();

    private static String read(String path) {
        try {
            return Files.readString(Path.of(path));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static NodeFacts node(String node, String rail0, String rail1, String driver, String fw) {
        return new NodeFacts(node, node, Reading.of(driver), Reading.of("13.0"), Reading.of("2.28.3"),
                Map.of("mlx4_0", Reading.of(fw)), List.of(netdev("enp5s0", 1500, "192.168.1.7" + node.charAt(node.length() - 1) + "/24"),
                netdev("ens6", 9000, rail0), netdev("ens6d1", 9000, rail1), netdev("lo", 65536, "127.0.0.1/8")));
    }

    private static NodeFacts.Netdev netdev(String name, int mtu, String... addrs) {
        return new NodeFacts.Netdev(name, Reading.of(mtu), Reading.of("up"), Reading.of(List.of(addrs)));
    }

    private static NodeFacts versions(NodeFacts f, String cuda, String nccl) {
        return new NodeFacts(f.node(), f.hostname(), f.driverVersion(), Reading.of(cuda), Reading.of(nccl), f.rdmaFirmware(),
                f.netdevs());
    }

    private static NodeFacts netdevs(NodeFacts f, NodeFacts.Netdev... ds) {
        return new NodeFacts(f.node(), f.hostname(), f.driverVersion(), f.cudaVersion(), f.ncclVersion(), f.rdmaFirmware(),
                List.of(ds));
    }

    /** The commands run on the node the finding names, on its netdev, with the spec's values; nothing else on the line. */
    @Test
    void fixesNameTheNodeItsNetdevAndTheSpecsValue() {
        NodeFacts b = node("gpuserver2", "10.0.1.2/24", "10.0.0.2/24", "580.126.09", "2.42.5000");
        assertThat(fixOf(netdevs(b, netdev("ens6", 1500, "10.0.1.2/24"), netdev("ens6d1", 9000, "10.0.0.2/24")),
                "rail0 gpuserver2 ens6")).isEqualTo("# on gpuserver2:\nip link set dev ens6 mtu 9000\n"
                + "printf 'network:\\n  version: 2\\n  ethernets:\\n    ens6:\\n      mtu: 9000\\n' > "
                + "/etc/netplan/90-railyard-ens6-mtu.yaml && chmod 600 /etc/netplan/90-railyard-ens6-mtu.yaml && netplan apply");
        assertThat(fixOf(netdevs(b, netdev("ens6", 9000, "10.0.1.2/24"), netdev("ens6d1", 9000, "169.254.3.1/16")),
                "rail1 gpuserver2 ens6d1")).startsWith("# on gpuserver2:\nip addr add 10.0.0.2/24 dev ens6d1\nprintf ");
        assertThat(fixOf(node("gpuserver2", "10.0.1.1/24", "10.0.0.2/24", "580.126.09", "2.42.5000"), "10.0.1.1"))
                .startsWith("# 10.0.1.1 is gpuserver1's in the spec:\n# on gpuserver2:\nip addr del 10.0.1.1/24 dev ens6\n"
                        + "ip addr add 10.0.1.2/24 dev ens6\n");
        assertThat(fixOf(node("gpuserver2", "10.0.1.2/24", "10.0.0.2/24", "570.86.15", "2.42.5000"), "GPU driver on gpuserver2"))
                .startsWith("# on gpuserver2: install NVIDIA driver 580.126.09 ")
                .endsWith("\nnvidia-smi --query-gpu=driver_version --format=csv,noheader");
    }

    private static String fixOf(NodeFacts second, String subject) {
        NodeFacts first = node("gpuserver1", "10.0.1.1/24", "10.0.0.1/24", "580.126.09", "2.42.5000");
        ClusterInput in = new ClusterInput(SPEC, Map.of(first.node(), first, second.node(), second), Map.of());
        return ClusterCheck.all().stream().flatMap(c -> c.run(in).stream()).filter(f -> f.subject().equals(subject))
                .findFirst().orElseThrow().remediation();
    }

    /** The example spec with one binding's address changed as the spec reader would refuse (outside the subnet). */
    private static ClusterSpec rebound(String network, String node, String netdev, String address) {
        List<ClusterSpec.Network> nets = SPEC.networks().stream().map(n -> {
            if (!n.name().equals(network)) return n;
            Map<String, ClusterSpec.Binding> bind = new LinkedHashMap<>(n.bind());
            bind.put(node, new ClusterSpec.Binding(netdev, bind.get(node).rdma(), java.util.Optional.of(address)));
            return new ClusterSpec.Network(n.name(), n.role(), n.linkLayer(), n.rateGbps(), n.mtu(), n.subnet(), n.ipoibMode(),
                    bind, n.subnetManager());
        }).toList();
        return new ClusterSpec(SPEC.cluster(), SPEC.source(), SPEC.nodes(), SPEC.gpus(), nets, SPEC.expect(), SPEC.slurm(),
                SPEC.sshUser(), SPEC.ssh(), SPEC.agent());
    }

    private void run(ClusterSpec spec, NodeFacts... facts) {
        Map<String, NodeFacts> m = new LinkedHashMap<>();
        for (NodeFacts f : facts) m.put(f.node(), f);
        ClusterInput in = new ClusterInput(spec, m, Map.of());
        for (ClusterCheck c : ClusterCheck.all()) {
            for (Finding f : c.run(in)) {
                if (f.remediation().isEmpty()) continue;
                String what = f.id() + " " + f.severity() + " " + f.subject();
                reached.add(what);
                RunnableFixes.problem(what, f.remediation()).ifPresent(problems::add);
                problems.addAll(Jargon.in(what, f.remediation()));
            }
        }
    }

    @Test
    void everyClusterCheckBranchGivesARunnableFix() {
        NodeFacts a = node("gpuserver1", "10.0.1.1/24", "10.0.0.1/24", "580.126.09", "2.42.5000");
        NodeFacts b = node("gpuserver2", "10.0.1.2/24", "10.0.0.2/24", "580.126.09", "2.42.5000");
        // versions differ: driver and firmware, CUDA and NCCL
        run(SPEC, a, node("gpuserver2", "10.0.1.2/24", "10.0.0.2/24", "570.86.15", "2.36.5000"));
        run(SPEC, a, versions(b, "12.8", "2.21.5"));
        // an MTU apart, a netdev the node lacks, an address outside the rail, one address on both nodes
        run(SPEC, a, netdevs(b, netdev("ens6", 1500, "10.0.1.2/24"), netdev("ens6d1", 9000, "169.254.3.1/16")));
        run(SPEC, a, netdevs(b, netdev("ens6", 9000, "10.0.1.2/24")));
        run(SPEC, a, node("gpuserver2", "10.0.1.1/24", "10.0.0.2/24", "580.126.09", "2.42.5000"));
        // the spec: an address outside its subnet, a binding without an address, a rail on the management subnet
        run(rebound("rail1", "gpuserver2", "ens6d1", "10.0.9.2"), a, b);
        run(new SpecReader().read("s1.yaml", YAML.replace(", address: 10.0.0.2}", "}")), a,
                netdevs(b, netdev("ens6", 9000, "10.0.1.2/24"), netdev("ens6d1", 9000)));
        run(new SpecReader().read("s1.yaml", YAML.replace("10.0.0.0/24", "192.168.0.0/16").replace("10.0.0.", "192.168.2.")), a, b);
        run(rebound("rail1", "gpuserver1", "ens6d1", "192.168.1.200"), a, b);
        run(new SpecReader().read("s1.yaml", YAML.replace("gpuserver2: {netdev: ens6d1", "gpuserver2: {netdev: enp5s0")), a, b);

        assertThat(reached).contains(
                "cluster.versions FAIL GPU driver on gpuserver2", "cluster.versions FAIL CUDA on gpuserver2",
                "cluster.versions FAIL NCCL on gpuserver2", "cluster.versions WARN mlx4_0 firmware on gpuserver2",
                "cluster.mtu FAIL rail0 gpuserver2 ens6", "cluster.mtu UNKNOWN rail1 gpuserver2 ens6d1",
                "cluster.addresses FAIL rail1 gpuserver2 ens6d1", "cluster.addresses FAIL 10.0.1.1",
                "cluster.network.separation FAIL rail1", "cluster.network.separation FAIL rail1 gpuserver1",
                "cluster.network.separation FAIL rail1 gpuserver2", "cluster.addresses FAIL rail1 gpuserver1 ens6d1");
        assertThat(problems).isEmpty();
    }
}
