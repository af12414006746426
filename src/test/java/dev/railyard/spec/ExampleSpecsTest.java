package dev.railyard.spec;

import dev.railyard.model.ClusterSpec;
import dev.railyard.model.ClusterSpec.Binding;
import dev.railyard.model.ClusterSpec.IpoibMode;
import dev.railyard.model.ClusterSpec.LinkLayer;
import dev.railyard.model.ClusterSpec.Network;
import dev.railyard.model.ClusterSpec.Role;
import dev.railyard.model.NetInterface.RdmaPortRef;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** The four example specs (V100 homelab, DGX Spark, R730 QDR, H100 HDR): each reads, and carries the names and numbers its system's write-up states. */
class ExampleSpecsTest {

    static final Path EXAMPLES = Path.of("examples");
    final SpecReader reader = new SpecReader();

    @Test
    void everyExampleReads() throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.list(EXAMPLES)) {
            files = s.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
        }
        assertThat(files).extracting(p -> p.getFileName().toString()).containsExactly(
                "s1-homelab-v100-roce.yaml", "s2-dgx-spark-roce.yaml", "s3-r730-ib-qdr.yaml", "s4-h100-hdr.yaml");
        for (Path f : files) assertThat(reader.read(f).nodes()).isNotEmpty();
    }

    @Test
    void s1HasTwoRoceRailsOnTheTwoConnectX3Ports() {
        ClusterSpec s = reader.read(EXAMPLES.resolve("s1-homelab-v100-roce.yaml"));
        assertThat(s.cluster()).isEqualTo("homelab-v100");
        assertThat(s.nodes()).extracting(ClusterSpec.Node::name, ClusterSpec.Node::address, n -> n.bmc().orElseThrow())
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("gpuserver1", "192.168.1.73", "192.168.1.72"),
                        org.assertj.core.groups.Tuple.tuple("gpuserver2", "192.168.1.71", "192.168.1.70"));
        assertThat(s.gpus()).contains(new ClusterSpec.Gpus("Tesla V100-PCIE-16GB", 2,
                Optional.of("580.126.09"), Optional.of("13.0")));
        assertThat(s.network("mgmt").orElseThrow().subnet()).contains("192.168.1.0/24");
        assertThat(s.network("mgmt").orElseThrow().role()).isEqualTo(Role.MANAGEMENT);

        Network rail0 = s.network("rail0").orElseThrow();
        Network rail1 = s.network("rail1").orElseThrow();
        for (Network rail : List.of(rail0, rail1)) {
            assertThat(rail.role()).isEqualTo(Role.COMPUTE);
            assertThat(rail.linkLayer()).contains(LinkLayer.ETHERNET);
            assertThat(rail.rateGbps()).contains(40.0);
            assertThat(rail.mtu()).contains(9000);
        }
        assertThat(rail0.subnet()).contains("10.0.1.0/24");
        assertThat(rail0.bind().get("gpuserver2"))
                .isEqualTo(new Binding("ens6", Optional.of(new RdmaPortRef("mlx4_0", 1)), Optional.of("10.0.1.2")));
        assertThat(rail1.subnet()).contains("10.0.0.0/24");
        assertThat(rail1.bind().get("gpuserver1"))
                .isEqualTo(new Binding("ens6d1", Optional.of(new RdmaPortRef("mlx4_0", 2)), Optional.of("10.0.0.1")));
        assertThat(rail1.bind().keySet()).containsExactly("gpuserver1", "gpuserver2");
        assertThat(s.expect().rdmaBwEfficiency()).isEqualTo(0.90);
        assertThat(s.expect().netBufferBytes()).isEqualTo(268_435_456L);
    }

    @Test
    void s2UsesTheOneCabledConnectX7PortOnTheMesh() {
        ClusterSpec s = reader.read(EXAMPLES.resolve("s2-dgx-spark-roce.yaml"));
        assertThat(s.nodes()).extracting(ClusterSpec.Node::name).containsExactly("spark-01", "spark-02");
        assertThat(s.gpus().orElseThrow().model()).isEqualTo("NVIDIA GB10");
        assertThat(s.gpus().orElseThrow().perNode()).isEqualTo(1);
        Network mesh = s.network("mesh").orElseThrow();
        assertThat(mesh.subnet()).contains("192.168.100.0/24");
        assertThat(mesh.mtu()).contains(9000);
        assertThat(mesh.bind().get("spark-02")).isEqualTo(new Binding("enP2p1s0f0np0",
                Optional.of(new RdmaPortRef("roceP2p1s0f0", 1)), Optional.of("192.168.100.2")));
        assertThat(s.expect().ncclBusbwGBps()).contains(12.0);
        assertThat(s.expect().netBufferBytes()).isEqualTo(268_435_456L);
        assertThat(s.node("spark-02").orElseThrow().disableNetdevs())
                .containsExactly("enp1s0f0np0", "enp1s0f1np1", "enP2p1s0f1np1");
        assertThat(s.sshUser()).contains("geo");
    }

    @Test
    void bringUpKeysOfS3AndS4() {
        ClusterSpec s3 = reader.read(EXAMPLES.resolve("s3-r730-ib-qdr.yaml"));
        assertThat(s3.nodes()).extracting(ClusterSpec.Node::osFamily).containsOnly(ClusterSpec.OsFamily.RHEL);
        assertThat(s3.network("ib").orElseThrow().subnetManager()).contains("r720");
        ClusterSpec s4 = reader.read(EXAMPLES.resolve("s4-h100-hdr.yaml"));
        assertThat(s4.slurm()).contains(new ClusterSpec.Slurm("gpu-training", Optional.empty()));
        assertThat(s4.nodes()).extracting(ClusterSpec.Node::osFamily).containsOnly(ClusterSpec.OsFamily.UBUNTU);
    }

    @Test
    void s3IsInfinibandQdrInConnectedModeWithMixedGpusPerNode() {
        ClusterSpec s = reader.read(EXAMPLES.resolve("s3-r730-ib-qdr.yaml"));
        assertThat(s.nodes()).hasSize(3);
        assertThat(s.gpus()).isEmpty();
        assertThat(s.gpusFor("r720").orElseThrow().model()).isEqualTo("Tesla P4");
        assertThat(s.gpusFor("r730-1").orElseThrow().model()).isEqualTo("Tesla T4");
        int total = s.nodes().stream().mapToInt(n -> s.gpusFor(n.name()).orElseThrow().perNode()).sum();
        assertThat(total).isEqualTo(5);
        Network ib = s.network("ib").orElseThrow();
        assertThat(ib.linkLayer()).contains(LinkLayer.INFINIBAND);
        assertThat(ib.rateGbps()).contains(40.0);
        assertThat(ib.mtu()).contains(65520);
        assertThat(ib.ipoibMode()).contains(IpoibMode.CONNECTED);
        assertThat(ib.bind()).hasSize(3);
        assertThat(ib.bind().values()).allSatisfy(b -> assertThat(b.netdev()).isEqualTo("ib0"));
    }

    @Test
    void s4HasEightH100NodesOnHdrAndA1GbeManagementNetwork() {
        ClusterSpec s = reader.read(EXAMPLES.resolve("s4-h100-hdr.yaml"));
        assertThat(s.cluster()).isEqualTo("ml-training-cluster");
        assertThat(s.nodes()).extracting(ClusterSpec.Node::name).containsExactly(
                "compute01", "compute02", "compute03", "compute04", "compute05", "compute06", "compute07", "compute08");
        assertThat(s.gpusFor("compute05").orElseThrow().perNode()).isEqualTo(8);
        assertThat(s.gpus().orElseThrow().model()).contains("H100");
        Network mgmt = s.network("mgmt").orElseThrow();
        assertThat(mgmt.subnet()).contains("10.0.1.0/24");
        assertThat(mgmt.rateGbps()).contains(1.0);
        Network ib = s.network("ib-hdr").orElseThrow();
        assertThat(ib.linkLayer()).contains(LinkLayer.INFINIBAND);
        assertThat(ib.rateGbps()).contains(200.0);
        assertThat(ib.bind()).hasSize(8);
        assertThat(ib.bind().values()).allSatisfy(b ->
                assertThat(b.rdma()).contains(new RdmaPortRef("mlx5_0", 1)));
        assertThat(s.expect().gpuTempWarnC()).isEqualTo(85.0);
        assertThat(s.expect().storageSeqMBps()).contains(800.0);
    }

    @Test
    void aNodeOverrideInheritsTheClusterDriverPin() {
        ClusterSpec s = reader.read("c.yaml", """
                cluster: mixed
                gpus: {model: "Tesla T4", per_node: 1, driver: "580.126.09"}
                nodes:
                  - {name: a, address: a.lab}
                  - {name: b, address: 10.1.1.2, gpus: {model: "Tesla P4", per_node: 2}}
                """);
        assertThat(s.gpusFor("a").orElseThrow().model()).isEqualTo("Tesla T4");
        assertThat(s.gpusFor("b").orElseThrow())
                .isEqualTo(new ClusterSpec.Gpus("Tesla P4", 2, Optional.of("580.126.09"), Optional.empty()));
        assertThat(s.networks()).isEmpty();
        assertThat(s.expect()).isEqualTo(ClusterSpec.Expect.defaults());
    }
}
