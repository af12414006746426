package dev.railyard.render;

import dev.railyard.model.ClusterSpec;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Which node gets which file, and the small derivations the goldens rely on. */
class RenderRulesTest {

    private static List<String> paths(String example, String node) {
        return Examples.render(example, node).stream().map(RenderedFile::path).toList();
    }

    @Test
    void rhelNodesGetKeyfilesAndUbuntuNodesNetplan() {
        assertThat(paths("s3-r730-ib-qdr", "r730-2")).contains("etc/NetworkManager/system-connections/railyard-ib.nmconnection")
                .doesNotContain(NetplanRenderer.PATH);
        assertThat(paths("s1-homelab-v100-roce", "gpuserver2")).contains(NetplanRenderer.PATH)
                .noneMatch(p -> p.startsWith("etc/NetworkManager"));
        RenderedFile keyfile = Examples.file(Examples.render("s3-r730-ib-qdr", "r730-2"),
                "etc/NetworkManager/system-connections/railyard-ib.nmconnection");
        assertThat(keyfile.mode()).isEqualTo(RenderedFile.PRIVATE);
        assertThat(keyfile.content()).contains("\nmtu=4092\ntransport-mode=datagram\n").contains("\naddress1=10.10.10.22/24\n");
    }

    @Test
    void openSmOnlyOnTheSubnetManagerNode() {
        assertThat(paths("s3-r730-ib-qdr", "r720")).contains("etc/rdma/opensm.conf");
        assertThat(paths("s3-r730-ib-qdr", "r730-1")).noneMatch(p -> p.contains("opensm"));
        assertThat(paths("s4-h100-hdr", "compute01")).noneMatch(p -> p.contains("opensm"));
    }

    /** GID 0 of an InfiniBand port is fe80:: plus the port GUID (here the homelab ConnectX-3 Pro's node GUID 248a07030052aab0, + 1). */
    @Test
    void openSmBindsThePortGuidFromTheInventory(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws java.io.IOException {
        java.nio.file.Path port = dir.resolve("sys/class/infiniband/mlx5_0/ports/1");
        java.nio.file.Files.createDirectories(port.resolve("gids"));
        java.nio.file.Files.writeString(port.resolve("link_layer"), "InfiniBand\n");
        java.nio.file.Files.writeString(port.resolve("gids/0"), "fe80:0000:0000:0000:248a:0703:0052:aab1\n");
        var rdma = new dev.railyard.collect.InfinibandCollector().collect(dev.railyard.platform.HostRoot.at(dir));
        String conf = Examples.file(Examples.render(Examples.spec("s3-r730-ib-qdr"), "r720", rdma), "etc/rdma/opensm.conf").content();
        assertThat(conf).contains("\nguid 0x248a07030052aab1\n").doesNotContain("guid 0x0000000000000000");
    }

    @Test
    void slurmFilesOnlyWithASlurmKeyAndIdenticalOnEveryNode() {
        assertThat(paths("s1-homelab-v100-roce", "gpuserver1")).noneMatch(p -> p.startsWith("etc/slurm"));
        for (String f : List.of(SlurmRenderer.NODES, SlurmRenderer.GRES, SlurmRenderer.TOPOLOGY)) {
            assertThat(Examples.file(Examples.render("s4-h100-hdr", "compute08"), f))
                    .isEqualTo(Examples.file(Examples.render("s4-h100-hdr", "compute01"), f));
        }
    }

    @Test
    void nicsToKeepDownGetOneExecStartEach() {
        String unit = Examples.file(Examples.render("s2-dgx-spark-roce", "spark-02"), SystemdRenderer.NICS_DOWN).content();
        assertThat(unit).contains("ExecStart=-/usr/sbin/ip link set dev enp1s0f0np0 down\n")
                .contains("ExecStart=-/usr/sbin/ip link set dev enP2p1s0f1np1 down\n");
        assertThat(paths("s1-homelab-v100-roce", "gpuserver1")).doesNotContain(SystemdRenderer.NICS_DOWN);
    }

    @Test
    void gresTypesFromTheModelNames() {
        assertThat(SlurmRenderer.gresType("NVIDIA H100 80GB HBM3")).isEqualTo("h100");
        assertThat(SlurmRenderer.gresType("Tesla V100-PCIE-16GB")).isEqualTo("v100");
        assertThat(SlurmRenderer.gresType("NVIDIA GB10")).isEqualTo("gb10");
        assertThat(SlurmRenderer.gresType("Tesla T4")).isEqualTo("t4");
    }

    @Test
    void hostListsCompressRunsOfEqualWidth() {
        assertThat(HostList.compress(List.of("compute01", "compute02", "compute03", "compute05"))).isEqualTo("compute[01-03,05]");
        assertThat(HostList.compress(List.of("r720", "r730-1", "r730-2"))).isEqualTo("r720,r730-[1-2]");
        assertThat(HostList.compress(List.of("login", "gpu9", "gpu10"))).isEqualTo("login,gpu9,gpu10");
    }

    @Test
    void fabricNamesInHostsAndSsh() {
        List<RenderedFile> files = Examples.render("s2-dgx-spark-roce", "spark-01");
        assertThat(Examples.file(files, HostsRenderer.PATH).content()).contains("\n192.168.100.2\tspark-02-mesh\n")
                .contains("# spark-02 is reached as spark-02 (a name, resolved by DNS)");
        assertThat(Examples.file(files, SshConfigRenderer.PATH).content())
                .contains("Host spark-02-mesh\n    HostName 192.168.100.2\n")
                .doesNotContain("HostName 192.168.100.2\n    User geo")
                .endsWith("Match localuser geo\n    User geo\n");
    }

    @Test
    void theSpecCopyForTheAgentReadsBackAsTheSameSpec() {
        for (String example : Examples.ALL) {
            ClusterSpec spec = Examples.spec(example);
            String copy = Examples.file(Examples.render(example, spec.nodes().getFirst().name()), SpecCopyRenderer.PATH).content();
            ClusterSpec back = new dev.railyard.spec.SpecReader().read(spec.source(), copy);
            assertThat(back).isEqualTo(spec);
        }
        assertThat(Examples.file(Examples.render("s2-dgx-spark-roce", "spark-01"), SystemdRenderer.AGENT).content())
                .contains("--spec /" + SpecCopyRenderer.PATH + " ");
    }

    @Test
    void everyNodeOfEveryExampleRenders() {
        for (String example : Examples.ALL) {
            for (ClusterSpec.Node n : Examples.spec(example).nodes()) {
                assertThat(paths(example, n.name())).contains(SysctlRenderer.PATH, LimitsRenderer.PATH, HostsRenderer.PATH);
            }
        }
    }
}
