package dev.railyard.render;

import dev.railyard.collect.InfinibandCollector;
import dev.railyard.model.ClusterSpec;
import dev.railyard.model.RdmaDevice;
import dev.railyard.platform.HostRoot;
import dev.railyard.report.InventoryTextTrees;
import dev.railyard.spec.SpecReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * NCCL_IB_GID_INDEX from a real GID table: the show_gids output of NVIDIA/nccl#1573 (RoCE v2 IPv4 GIDs at index 7
 * on mlx5_0 and mlx5_1; mlx5_2's excerpt keeps only a link-local GID).
 */
class NcclEnvRendererTest {

    private static final String SPEC = """
            cluster: pods
            nodes:
              - {name: pod1, address: 10.0.0.5}
            networks:
              - name: rail0
                role: compute
                link_layer: ethernet
                subnet: 10.152.0.0/22
                bind:
                  pod1: {netdev: net1, rdma: "mlx5_0:1", address: 10.152.0.12}
              - name: rail1
                role: compute
                link_layer: ethernet
                subnet: 10.152.4.0/22
                bind:
                  pod1: {netdev: net2, rdma: "mlx5_1:1", address: 10.152.4.12}
            """;

    private static List<RdmaDevice> nccl1573(Path dir) throws IOException {
        return new InfinibandCollector().collect(HostRoot.at(InventoryTextTrees.nccl1573Roce(dir)));
    }

    private static String ncclConf(ClusterSpec spec, List<RdmaDevice> rdma) {
        return Examples.file(Examples.render(spec, "pod1", rdma), NcclEnvRenderer.PATH).content();
    }

    @Test
    void theGidIndexIsTheRoceV2GidOfEachRailsAddress(@TempDir Path dir) throws IOException {
        String conf = ncclConf(new SpecReader().read("pods.yaml", SPEC), nccl1573(dir));
        assertThat(conf).contains("\nNCCL_IB_HCA==mlx5_0:1,mlx5_1:1\n")
                .contains("\nNCCL_IB_GID_INDEX=7\n")
                .contains("mlx5_0:1 index 7 = 0000:0000:0000:0000:0000:ffff:0a98:000c")
                .contains("\nNCCL_SOCKET_IFNAME==net1\n")
                .doesNotContain("NCCL_IB_ROCE_VERSION_NUM");
    }

    @Test
    void aRailWithoutARoceV2GidLeavesTheChoiceToNccl(@TempDir Path dir) throws IOException {
        ClusterSpec spec = new SpecReader().read("pods.yaml", SPEC.replace("mlx5_1:1", "mlx5_2:1"));
        String conf = ncclConf(spec, nccl1573(dir));
        assertThat(conf).doesNotContain("NCCL_IB_GID_INDEX=")
                .contains("the inventory has no RoCE v2 GID for every rail's IPv4 address")
                .contains("\nNCCL_IB_ROCE_VERSION_NUM=2\n");
    }

    @Test
    void anAddressTheTableDoesNotHoldIsNotMatchedToAnotherGid(@TempDir Path dir) throws IOException {
        ClusterSpec spec = new SpecReader().read("pods.yaml", SPEC.replace("10.152.0.12", "10.152.0.13"));
        assertThat(ncclConf(spec, nccl1573(dir))).doesNotContain("NCCL_IB_GID_INDEX=");
    }

    @Test
    void ipv4MappedGidsAreDecodedWithoutDns() {
        assertThat(NcclEnvRenderer.ipv4("0000:0000:0000:0000:0000:ffff:0a00:0001")).contains("10.0.0.1");
        assertThat(NcclEnvRenderer.ipv4("fe80:0000:0000:0000:a4ed:ccff:fe8b:1994")).isEmpty();
        assertThat(NcclEnvRenderer.ipv4("garbage")).isEmpty();
    }

    @Test
    void infinibandRailsGetNoGidIndexAndSayWhy() {
        String conf = Examples.file(Examples.render("s4-h100-hdr", "compute03"), NcclEnvRenderer.PATH).content();
        assertThat(conf).contains("\nNCCL_IB_HCA==mlx5_0:1\n").contains("\nNCCL_SOCKET_IFNAME==eth0\n")
                .doesNotContain("NCCL_IB_GID_INDEX=").contains("The 8 x H100 HDR guide set 3");
    }
}
