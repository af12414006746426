package dev.railyard.spec;

import dev.railyard.model.ClusterSpec;
import dev.railyard.model.ClusterSpec.Binding;
import dev.railyard.model.ClusterSpec.IpoibMode;
import dev.railyard.model.ClusterSpec.LinkLayer;
import dev.railyard.model.ClusterSpec.Network;
import dev.railyard.model.ClusterSpec.Role;
import dev.railyard.model.NetInterface.RdmaPortRef;
import dev.railyard.model.NodeInventory;
import dev.railyard.model.Reading;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static dev.railyard.spec.InventoryFixture.device;
import static dev.railyard.spec.InventoryFixture.netdev;
import static dev.railyard.spec.InventoryFixture.port;
import static org.assertj.core.api.Assertions.assertThat;

class StarterSpecTest {

    private static final Reading<String> NO_IPOIB = Reading.absent("not IPoIB");

    /** gpuserver1 of the V100 homelab: two V100, mlx4_0 ports 1 and 2 up at 40G on ens6 / ens6d1, enp5s0 on the LAN. */
    static NodeInventory gpuserver1() {
        return InventoryFixture.node("gpuserver1.lab",
                InventoryFixture.nvml("580.126.09", "13.0", "Tesla V100-PCIE-16GB", "Tesla V100-PCIE-16GB"),
                List.of(device("mlx4_0",
                        port("mlx4_0", 1, 4, "Ethernet", 40, "40 Gb/sec (4X QDR)"),
                        port("mlx4_0", 2, 4, "Ethernet", 40, "40 Gb/sec (4X QDR)"))),
                List.of(netdev("lo", 65536, "unknown", List.of("127.0.0.1/8"), NO_IPOIB),
                        netdev("docker0", 1500, "up", List.of("172.17.0.1/16"), NO_IPOIB),
                        netdev("enp5s0", 1500, "up", List.of("192.168.1.73/24", "fe80::1/64"), NO_IPOIB),
                        netdev("enp6s0", 1500, "down", List.of(), NO_IPOIB),
                        netdev("ens6", 9000, "up", List.of("10.0.1.1/24"), NO_IPOIB, new RdmaPortRef("mlx4_0", 1)),
                        netdev("ens6d1", 9000, "up", List.of("10.0.0.1/24"), NO_IPOIB, new RdmaPortRef("mlx4_0", 2))));
    }

    @Test
    void describesThisNodeItsGpusAndOneRailPerActivePort() {
        StarterSpec starter = StarterSpec.from(gpuserver1(), Optional.of("homelab-v100"));
        ClusterSpec s = starter.spec();
        assertThat(s.cluster()).isEqualTo("homelab-v100");
        assertThat(s.nodes()).containsExactly(
                new ClusterSpec.Node("gpuserver1", "192.168.1.73", Optional.empty(), Optional.empty()));
        assertThat(s.gpus()).contains(new ClusterSpec.Gpus("Tesla V100-PCIE-16GB", 2,
                Optional.of("580.126.09"), Optional.of("13.0")));
        Network mgmt = s.networks().get(0);
        assertThat(mgmt.role()).isEqualTo(Role.MANAGEMENT);
        assertThat(mgmt.subnet()).contains("192.168.1.0/24");
        assertThat(mgmt.bind().get("gpuserver1").netdev()).isEqualTo("enp5s0");
        assertThat(s.networks()).extracting(Network::name).containsExactly("mgmt", "rail0", "rail1");
        Network rail1 = s.networks().get(2);
        assertThat(rail1.linkLayer()).contains(LinkLayer.ETHERNET);
        assertThat(rail1.rateGbps()).contains(40.0);
        assertThat(rail1.mtu()).contains(9000);
        assertThat(rail1.subnet()).contains("10.0.0.0/24");
        assertThat(rail1.bind().get("gpuserver1")).isEqualTo(
                new Binding("ens6d1", Optional.of(new RdmaPortRef("mlx4_0", 2)), Optional.of("10.0.0.1")));
        assertThat(starter.todos()).isEmpty();
    }

    @Test
    void theWrittenStarterReadsBackToTheSameSpec() {
        StarterSpec starter = StarterSpec.from(gpuserver1(), Optional.of("homelab-v100"));
        String yaml = new SpecWriter().writeStarter(starter, "gpuserver1");
        ClusterSpec back = new SpecReader().read("cluster.yaml", yaml);
        assertThat(back).isEqualTo(withSource(starter.spec(), "cluster.yaml"));
        assertThat(yaml).contains("# TODO: add the other nodes", "# TODO: bind the other nodes",
                "      gpuserver1: {netdev: ens6d1, rdma: \"mlx4_0:2\", address: 10.0.0.1}",
                "  model: \"Tesla V100-PCIE-16GB\"", "  driver: \"580.126.09\"");
    }

    @Test
    void anInfinibandPortInConnectedModeSkipsDownPortsAndNamesWhatIsMissing() {
        NodeInventory r730 = InventoryFixture.node("r730-1", InventoryFixture.nvml("580.95.05", "13.0",
                        "Tesla T4", "Tesla T4", "Tesla P4"),
                List.of(device("mlx5_0", port("mlx5_0", 1, 4, "InfiniBand", 40, "40 Gb/sec (4X QDR)")),
                        device("mlx5_1", port("mlx5_1", 1, 1, "InfiniBand", 10, "10 Gb/sec (4X SDR)")),
                        device("mlx5_2", port("mlx5_2", 1, 4, "InfiniBand", 100, "100 Gb/sec (4X EDR)"))),
                List.of(netdev("ib0", 65520, "up", List.of("10.10.10.21/24"), Reading.of("connected\n"),
                        new RdmaPortRef("mlx5_0", 1))));
        StarterSpec starter = StarterSpec.from(r730, Optional.empty());
        ClusterSpec s = starter.spec();
        assertThat(s.cluster()).isEqualTo(StarterSpec.DEFAULT_NAME);
        assertThat(s.nodes().getFirst().address()).isEqualTo("r730-1");
        assertThat(s.gpus().orElseThrow().model()).isEqualTo("Tesla T4");
        assertThat(s.gpus().orElseThrow().perNode()).isEqualTo(2);
        Network ib = s.network("rail0").orElseThrow();
        assertThat(ib.linkLayer()).contains(LinkLayer.INFINIBAND);
        assertThat(ib.mtu()).contains(65520);
        assertThat(ib.ipoibMode()).contains(IpoibMode.CONNECTED);
        assertThat(s.networks()).hasSize(2);
        assertThat(starter.todos()).containsExactly(
                "name the cluster: edit 'cluster' (or run init with --name)",
                "no management interface with an IPv4 address was found: set the node's address and the mgmt subnet",
                "mlx5_2:1 is ACTIVE but no netdev carries it (no IPoIB interface?): add its network by hand",
                "this node mixes GPU models [Tesla P4, Tesla T4]: give the node its own 'gpus' per model");
        String yaml = new SpecWriter().writeStarter(starter, "r730-1");
        assertThat(new SpecReader().read("cluster.yaml", yaml)).isEqualTo(withSource(s, "cluster.yaml"));
        assertThat(yaml).contains("# TODO: mlx5_2:1 is ACTIVE");
    }

    @Test
    void aNodeWithNothingStillGivesASpecThatReads() {
        NodeInventory bare = InventoryFixture.node("unknown", InventoryFixture.noGpus(), List.of(), List.of());
        StarterSpec starter = StarterSpec.from(bare, Optional.of("lab"));
        String yaml = new SpecWriter().writeStarter(starter, "unknown");
        ClusterSpec back = new SpecReader().read("cluster.yaml", yaml);
        assertThat(back.nodes()).extracting(ClusterSpec.Node::name).containsExactly("unknown");
        assertThat(back.gpus()).isEmpty();
        assertThat(starter.todos()).anySatisfy(t -> assertThat(t).startsWith("no GPU was found on this node "
                + "(libnvidia-ml.so.1 not found)"));
        assertThat(starter.todos()).contains("no ACTIVE RDMA port was found on this node: add the compute network(s) by hand");
    }

    @Test
    void aHostnameWithItsDomainFindsTheShortNamedNodeInitWrote() {
        StarterSpec starter = StarterSpec.from(gpuserver1(), Optional.of("homelab-v100"));
        ClusterSpec s = starter.spec();
        assertThat(s.nodeForHost("gpuserver1.lab")).map(ClusterSpec.Node::name).contains("gpuserver1");
        assertThat(s.nodeForHost("gpuserver1\n")).map(ClusterSpec.Node::name).contains("gpuserver1");
        assertThat(s.nodeForHost("gpuserver2.lab")).isEmpty();
        // read, not guessed: nothing but the management network's choice is marked
        assertThat(starter.notes()).containsOnlyKeys("network.mgmt");
    }

    @Test
    void whatTheBareNodeCouldNotTellIsMarkedOnItsLine() {
        NodeInventory bare = InventoryFixture.node("unknown", InventoryFixture.noGpus(), List.of(), List.of());
        String yaml = new SpecWriter().writeStarter(StarterSpec.from(bare, Optional.empty()), "unknown");
        assertThat(yaml).contains("cluster: my-cluster  # TODO: a placeholder",
                "  - name: unknown  # TODO: a placeholder: this node's hostname could not be read",
                "    address: unknown  # TODO: guessed: no management IPv4 address was found",
                "  # mgmt: TODO: no management interface was found",
                "# These are railyard's defaults, not measured on this node");
        assertThat(yaml).doesNotContain("    link_layer: ethernet");
    }

    @Test
    void theWriterRoundTripsEveryExample() {
        for (String f : List.of("s1-homelab-v100-roce.yaml", "s2-dgx-spark-roce.yaml", "s3-r730-ib-qdr.yaml",
                "s4-h100-hdr.yaml")) {
            ClusterSpec spec = new SpecReader().read(java.nio.file.Path.of("examples", f));
            ClusterSpec back = new SpecReader().read("again.yaml", new SpecWriter().write(spec));
            assertThat(back).as(f).isEqualTo(withSource(spec, "again.yaml"));
        }
    }

    static ClusterSpec withSource(ClusterSpec s, String source) {
        return new ClusterSpec(s.cluster(), source, s.nodes(), s.gpus(), s.networks(), s.expect(), s.slurm(), s.sshUser());
    }
}
