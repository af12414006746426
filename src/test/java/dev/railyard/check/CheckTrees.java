package dev.railyard.check;

import dev.railyard.collect.GpuCollector;
import dev.railyard.collect.HostTtar;
import dev.railyard.collect.InventoryCollector;
import dev.railyard.collect.SysfsFixtures;
import dev.railyard.model.ClusterSpec;
import dev.railyard.model.Finding;
import dev.railyard.model.NodeInventory;
import dev.railyard.platform.Clock;
import dev.railyard.platform.HostRoot;
import dev.railyard.platform.ReadLog;
import dev.railyard.spec.SpecReader;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Sysfs/procfs trees for end-to-end check tests: the real base trees of test resources (gpud's H100
 * sys/class/infiniband, node_exporter's mlx4_0/i40iw0 and sys/class/net, node_exporter's CPUs and PCI bus, procfs'
 * limits) unpacked or copied into a directory, which each case then changes in the one or two files it is about.
 */
public final class CheckTrees {

    /** The node's name in examples/s1-homelab-v100-roce.yaml (the V100 homelab's first server). */
    public static final String NODE = "gpuserver1";
    /** Where node_exporter's eth0 lives; renamed to the homelab's ens6d1 by {@link #seed000}. */
    static final String ETH0 = "sys/devices/pci0000:00/0000:00:03.0/0000:03:00.0/net/eth0";
    static final String ENS6D1 = "sys/devices/pci0000:00/0000:00:03.0/0000:03:00.0/net/ens6d1";

    private static final Clock FIXED = new Clock() {
        @Override
        public Instant now() {
            return Instant.parse("2025-01-17T15:36:15Z");
        }

        @Override
        public long nanoTime() {
            return 0;
        }
    };

    private CheckTrees() {
    }

    /** gpud's H100 capture: 8 ConnectX-7 NDR IB ports (mlx5_0..9) and the BlueField-3 RoCE bond mlx5_bond_0. */
    public static Path h100(Path dir) throws IOException {
        Path from = SysfsFixtures.resourceTree("gpud-h100").resolve("sys");
        try (Stream<Path> all = Files.walk(from)) {
            for (Path p : all.toList()) {
                Path to = dir.resolve("sys").resolve(from.relativize(p).toString());
                if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) Files.createDirectories(to);
                else Files.copy(p, to, StandardCopyOption.REPLACE_EXISTING, LinkOption.NOFOLLOW_LINKS);
            }
        }
        return dir;
    }

    /** node_exporter's sys/class/infiniband (mlx4_0: 2 ports 40 Gb/sec 4X QDR; i40iw0) and sys/class/net (bonds, eth0). */
    public static Path connectx3(Path dir) throws IOException {
        SysfsFixtures.unpackTtar("node_exporter-class-infiniband.ttar.txt", dir);
        return SysfsFixtures.unpackTtar("node_exporter-class-net.ttar.txt", dir);
    }

    /**
     * The homelab's RoCE rail on the ConnectX-3 base: mlx4_0 port 2 in Ethernet mode (a ConnectX-3 Pro port set to ETH),
     * its netdev ens6d1 (node_exporter's eth0 under the name udev gives it, mtu 1500 as captured) and the port's GID
     * table as the homelab's show_gids printed it (index 2 = RoCE v2 ::ffff:10.0.0.1).
     */
    public static Path seed000(Path dir) throws IOException {
        connectx3(dir);
        write(dir, "sys/class/infiniband/mlx4_0/ports/2/link_layer", "Ethernet\n");
        Files.move(dir.resolve(ETH0), dir.resolve(ENS6D1));
        Files.delete(dir.resolve("sys/class/net/eth0"));
        link(dir, "sys/class/net/ens6d1", "../../devices/pci0000:00/0000:00:03.0/0000:03:00.0/net/ens6d1");
        String[][] gids = {
                {"fe80:0000:0000:0000:268a:07ff:fe52:aab1", "IB/RoCE v1"},
                {"fe80:0000:0000:0000:268a:07ff:fe52:aab1", "RoCE v2"},
                {"0000:0000:0000:0000:0000:ffff:0a00:0001", "RoCE v2"},
                {"0000:0000:0000:0000:0000:ffff:0a00:0001", "IB/RoCE v1"}};
        for (int i = 0; i < gids.length; i++) gid(dir, "mlx4_0", 2, i, gids[i][0], gids[i][1], "ens6d1");
        return dir;
    }

    /** One GID table entry with its type and netdev, as the kernel lays them out. */
    public static void gid(Path dir, String device, int port, int index, String gid, String type, String netdev)
            throws IOException {
        String p = "sys/class/infiniband/" + device + "/ports/" + port;
        write(dir, p + "/gids/" + index, gid + "\n");
        write(dir, p + "/gid_attrs/types/" + index, type + "\n");
        write(dir, p + "/gid_attrs/ndevs/" + index, netdev + "\n");
    }

    /** node_exporter's CPUs (4 on powersave) and NVMe. */
    public static Path host(Path dir) {
        HostTtar.unpack("/trees/host/node_exporter-sys-host.ttar", dir);
        return dir;
    }

    /** node_exporter's PCI bus: AMD root port 0000:00:02.1, NVMe 0000:01:00.0, Intel I350 0000:45:00.0 (igb). */
    public static Path pci(Path dir) {
        HostTtar.unpack("/trees/pci/node_exporter-sys-bus-pci.ttar", dir);
        return dir;
    }

    /** A real procfs limits file (procfs fixtures 26231: 16 EiB memlock, 26232: 64 KiB) as proc/self/limits. */
    public static void limits(Path dir, String procfsPid) throws IOException {
        write(dir, "proc/self/limits", resource("/trees/host/procfs-proc-" + procfsPid + "-limits.txt"));
    }

    /** A test resource's text without its two SOURCE/HARDWARE lines. */
    public static String resource(String name) {
        try (InputStream in = CheckTrees.class.getResourceAsStream(name)) {
            if (in == null) throw new IllegalArgumentException("no test resource " + name);
            List<String> lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
            return String.join("\n", lines.subList(2, lines.size())) + "\n";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static void write(Path dir, String relative, String content) throws IOException {
        Path p = dir.resolve(relative);
        Files.createDirectories(p.getParent());
        Files.writeString(p, content);
    }

    public static void link(Path dir, String relative, String target) throws IOException {
        Path p = dir.resolve(relative);
        Files.createDirectories(p.getParent());
        Files.createSymbolicLink(p, Path.of(target));
    }

    /** The real example spec from examples/. */
    /** One node, gpuserver1, with gpud's mlx5_0 port 1 (netdev ibp129s0) as its one InfiniBand compute rail. */
    public static ClusterSpec oneRailSpec() {
        return new dev.railyard.spec.SpecReader().read("rail.yaml", """
                cluster: one-rail
                nodes:
                  - {name: gpuserver1, address: 192.168.1.73}
                networks:
                  - name: ib0
                    role: compute
                    link_layer: infiniband
                    bind:
                      gpuserver1: {netdev: ibp129s0, rdma: "mlx5_0:1"}
                """);
    }

    public static ClusterSpec example(String file) {
        return new SpecReader().read(Path.of("examples", file));
    }

    /** Every collector over the tree, as {@code railyard check --root} runs them. */
    public static NodeInventory collect(Path dir) {
        HostRoot root = HostRoot.at(dir);
        return new InventoryCollector(GpuCollector.forRoot(root), FIXED).collect(root);
    }

    /** {@link #collect(Path)}, noting in the log every path the collectors read or listed. */
    public static NodeInventory collect(Path dir, ReadLog log) {
        HostRoot root = HostRoot.at(dir, log);
        return new InventoryCollector(GpuCollector.forRoot(root), FIXED).collect(root);
    }

    /** Every node check on the tree, for node {@link #NODE}, without a spec. */
    public static List<Finding> check(Path dir) {
        return CheckRunner.nodeChecks().run(new CheckInput(collect(dir), Optional.empty(), NODE));
    }

    /** Every node check on the tree, judged against the spec as node {@link #NODE}. */
    public static List<Finding> check(Path dir, ClusterSpec spec) {
        return CheckRunner.nodeChecks().run(new CheckInput(collect(dir), Optional.of(spec), NODE));
    }

    /** The findings of one ID. */
    public static List<Finding> withId(List<Finding> findings, String id) {
        return findings.stream().filter(f -> f.id().equals(id)).toList();
    }
}
