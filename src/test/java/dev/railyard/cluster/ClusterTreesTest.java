package dev.railyard.cluster;

import dev.railyard.check.ClusterCheck;
import dev.railyard.check.ClusterInput;
import dev.railyard.model.CheckId;
import dev.railyard.model.ClusterSpec;
import dev.railyard.model.Finding;
import dev.railyard.model.NodeFacts;
import dev.railyard.model.NodeInventory;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;
import dev.railyard.report.InventoryTextTrees;
import dev.railyard.report.Json;
import dev.railyard.spec.SpecReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * cluster.pkey and cluster.versions' firmware on four copies of gpud's real H100 sys/class/infiniband (8 x ConnectX-7
 * NDR at 28.41.1000, a BlueField-3 bond at 32.38.3056), collected, written as validate ships them (inventory JSON) and
 * read back. That tree has no pkeys/ directory, so each IB port is given a 128-entry table holding the two keys an
 * Azure HPC node shows (MicrosoftDocs/azure-docs articles/virtual-machines/workloads/hpc/setup-mpi.md @ 63c2d71:
 * pkeys/0 = 0x800b, pkeys/1 = 0x7fff), the rest 0x0000 as the kernel lays them out; the odd nodes differ in one file.
 */
class ClusterTreesTest {

    @TempDir
    Path dir;

    private static final String SPEC = """
            cluster: h100
            nodes:
              - {name: n1, address: 192.168.0.1}
              - {name: n2, address: 192.168.0.2}
              - {name: n3, address: 192.168.0.3}
              - {name: n4, address: 192.168.0.4}
            networks:
              - name: rail0
                role: compute
                link_layer: infiniband
                bind:
                  n1: {netdev: ib0, rdma: "mlx5_0:1"}
                  n2: {netdev: ib0, rdma: "mlx5_0:1"}
                  n3: {netdev: ib0, rdma: "mlx5_0:1"}
                  n4: {netdev: ib0, rdma: "mlx5_0:1"}
              - name: rail2
                role: compute
                link_layer: infiniband
                bind:
                  n1: {netdev: ib2, rdma: "mlx5_4:1"}
                  n2: {netdev: ib2, rdma: "mlx5_4:1"}
                  n3: {netdev: ib2, rdma: "mlx5_4:1"}
                  n4: {netdev: ib2, rdma: "mlx5_4:1"}
              - name: storage
                role: storage
                bind:
                  n1: {netdev: bond0, rdma: "mlx5_bond_0:1"}
                  n2: {netdev: bond0, rdma: "mlx5_bond_0:1"}
                  n3: {netdev: bond0, rdma: "mlx5_bond_0:1"}
                  n4: {netdev: bond0, rdma: "mlx5_bond_0:1"}
            """;

    private Path node(String name) throws IOException {
        Path root = InventoryTextTrees.gpudH100(dir.resolve(name));
        Path ib = root.resolve("sys/class/infiniband");
        try (var devices = Files.list(ib)) {
            for (Path dev : devices.toList()) {
                if (!Files.readString(dev.resolve("ports/1/link_layer")).strip().equals("InfiniBand")) continue;
                Path table = Files.createDirectories(dev.resolve("ports/1/pkeys"));
                for (int i = 0; i < 128; i++) {
                    Files.writeString(table.resolve(String.valueOf(i)), i == 0 ? "0x800b\n" : i == 1 ? "0x7fff\n" : "0x0000\n");
                }
            }
        }
        return root;
    }

    private static NodeFacts facts(String name, Path root) throws IOException {
        NodeInventory inv = InventoryTextTrees.collect(root);
        return NodeFactsReader.read(name, Json.mapper().readTree(Json.write(inv)));
    }

    private static List<Finding> run(String id, NodeFacts... facts) {
        ClusterSpec spec = new SpecReader().read("cluster.yaml", SPEC);
        Map<String, NodeFacts> m = new LinkedHashMap<>();
        for (NodeFacts f : facts) m.put(f.node(), f);
        ClusterInput in = new ClusterInput(spec, m, Map.of());
        return ClusterCheck.all().stream().flatMap(c -> c.run(in).stream()).filter(f -> f.id().equals(id)).toList();
    }

    private static List<String> lines(List<Finding> findings) {
        return findings.stream().map(f -> f.severity() + " " + f.subject() + ": " + f.observed()).toList();
    }

    @Test
    void theSamePkeysOnEveryRailPass() throws IOException {
        NodeFacts n1 = facts("n1", node("n1"));
        assertThat(n1.rdmaPorts()).filteredOn(p -> p.device().equals("mlx5_0"))
                .singleElement().satisfies(p -> assertThat(p.pkeys()).isEqualTo(Reading.of(List.of(0x800b, 0x7fff))));
        List<Finding> f = run(CheckId.CLUSTER_PKEY.id(), n1, facts("n2", node("n2")), facts("n3", node("n3")),
                facts("n4", node("n4")));
        // the storage network is the BlueField-3's Ethernet bond: RoCE has no partitions to compare
        assertThat(lines(f)).containsExactly("PASS rail0: P_Keys 0x7fff, 0x800b on all 4 ports",
                "PASS rail2: P_Keys 0x7fff, 0x800b on all 4 ports");
    }

    @Test
    void anotherPartitionFailsAndAnotherMembershipWarnsNamingThePort() throws IOException {
        Path n3 = node("n3");
        // another tenant's partition on one rail port: "New tenants get different PKEYs"
        Files.writeString(n3.resolve("sys/class/infiniband/mlx5_4/ports/1/pkeys/0"), "0x800c\n");
        Path n4 = node("n4");
        // the same partition 0x000b as a limited member (top bit clear)
        Files.writeString(n4.resolve("sys/class/infiniband/mlx5_0/ports/1/pkeys/0"), "0x000b\n");
        List<Finding> f = run(CheckId.CLUSTER_PKEY.id(), facts("n1", node("n1")), facts("n2", node("n2")),
                facts("n3", n3), facts("n4", n4));
        assertThat(lines(f)).containsExactlyInAnyOrder(
                "WARN rail0 n4 mlx5_0:1: P_Keys 0x000b, 0x7fff (the same partitions, another membership)",
                "FAIL rail2 n3 mlx5_4:1: P_Keys 0x7fff, 0x800c");
        Finding fail = f.stream().filter(x -> x.severity() == Severity.FAIL).findFirst().orElseThrow();
        assertThat(fail.expected()).isEqualTo("0x7fff, 0x800b (as on 3 of 4 ports)");
        assertThat(fail.remediation()).contains("mlx5_4:1 on n3", "partitions.conf",
                "grep -v 0x0000 /sys/class/infiniband/mlx5_4/ports/1/pkeys/*");
    }

    @Test
    void anEmptyTableFailsAndAGarbledEntryIsUnknownWithItsPath() throws IOException {
        Path n2 = node("n2");
        Files.writeString(n2.resolve("sys/class/infiniband/mlx5_0/ports/1/pkeys/0"), "0x0000\n");
        Files.writeString(n2.resolve("sys/class/infiniband/mlx5_0/ports/1/pkeys/1"), "0x0000\n");
        Path n3 = node("n3");
        Files.writeString(n3.resolve("sys/class/infiniband/mlx5_4/ports/1/pkeys/17"), "N/A\n");
        List<Finding> f = run(CheckId.CLUSTER_PKEY.id(), facts("n1", node("n1")), facts("n2", n2), facts("n3", n3));
        assertThat(lines(f)).contains("FAIL rail0 n2 mlx5_0:1: no P_Key (every entry 0x0000)");
        assertThat(f).filteredOn(x -> x.subject().equals("rail2 n3 mlx5_4:1")).singleElement().satisfies(x -> {
            assertThat(x.severity()).isEqualTo(Severity.UNKNOWN);
            assertThat(x.observed()).contains("sys/class/infiniband/mlx5_4/ports/1/pkeys/17");
        });
        // n4 sent no inventory: no network may PASS on three of four ports
        assertThat(f).noneMatch(x -> x.severity() == Severity.PASS);
    }

    @Test
    void oneConnectX7OnOlderFirmwareIsNamedAndTheBlueFieldIsComparedApart() throws IOException {
        Path n2 = node("n2");
        Files.writeString(n2.resolve("sys/class/infiniband/mlx5_7/fw_ver"), "28.39.1002\n");
        List<Finding> f = run(CheckId.CLUSTER_VERSIONS.id(), facts("n1", node("n1")), facts("n2", n2),
                facts("n3", node("n3")), facts("n4", node("n4")));
        assertThat(lines(f)).contains("WARN mlx5_7 firmware on n2: 28.39.1002",
                "PASS mlx5_0 firmware: 28.41.1000 on all 4 nodes",
                "PASS mlx5_bond_0 firmware: 32.38.3056 on all 4 nodes");
        assertThat(lines(f)).noneMatch(l -> l.startsWith("PASS mlx5_7"));
        assertThat(f).filteredOn(x -> x.subject().equals("mlx5_7 firmware on n2")).singleElement()
                .satisfies(x -> assertThat(x.remediation()).contains("/sys/class/infiniband/mlx5_7/fw_ver", "mlxfwmanager"));
        // gpud's tree has no NVML: the driver is not compared, never PASS
        assertThat(f).filteredOn(x -> x.subject().equals("GPU driver")).singleElement()
                .satisfies(x -> assertThat(x.severity()).isEqualTo(Severity.INFO));
    }

    /**
     * NCCL's version is the target of libnccl.so.2 in the loader's directory, laid out as NCCL's packages and its
     * {@code make install} write it (libnccl.so.2 -> libnccl.so.2.X.Y); one node on an older NCCL is named, a node
     * without NCCL leaves the version unread there and no PASS.
     */
    @Test
    void ncclIsComparedFromTheLibraryTheLoaderFinds() throws IOException {
        Path[] roots = {node("n1"), node("n2"), node("n3"), node("n4")};
        String[] versions = {"2.21.5", "2.21.5", "2.18.3", null};
        for (int i = 0; i < roots.length; i++) {
            if (versions[i] == null) continue;
            Path lib = Files.createDirectories(roots[i].resolve("usr/lib/x86_64-linux-gnu"));
            Files.writeString(lib.resolve("libnccl.so." + versions[i]), "ELF");
            Files.createSymbolicLink(lib.resolve("libnccl.so.2"), Path.of("libnccl.so." + versions[i]));
        }
        List<Finding> f = run(CheckId.CLUSTER_VERSIONS.id(), facts("n1", roots[0]), facts("n2", roots[1]),
                facts("n3", roots[2]), facts("n4", roots[3]));
        assertThat(f).filteredOn(x -> x.subject().startsWith("NCCL")).extracting(x -> x.severity() + " " + x.subject()
                + ": " + x.observed()).containsExactly("FAIL NCCL on n3: 2.18.3",
                "UNKNOWN NCCL: not read on n4: absent (no libnccl.so.2 in /usr/lib/x86_64-linux-gnu, "
                        + "/usr/lib/aarch64-linux-gnu, /usr/lib64, /usr/local/cuda/lib64, /usr/lib)");
        assertThat(f).filteredOn(x -> x.subject().equals("NCCL on n3")).singleElement()
                .satisfies(x -> assertThat(x.expected()).isEqualTo("2.21.5 (as on 2 of 3 nodes)"));
    }
}
