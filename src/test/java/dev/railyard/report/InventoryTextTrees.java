package dev.railyard.report;

import dev.railyard.collect.GpuCollector;
import dev.railyard.collect.HostTtar;
import dev.railyard.collect.InventoryCollector;
import dev.railyard.collect.SysfsFixtures;
import dev.railyard.model.NodeInventory;
import dev.railyard.platform.Clock;
import dev.railyard.platform.HostRoot;

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
import java.util.stream.Stream;

/**
 * The real captured trees the inventory goldens are taken on, each assembled under a directory, and the collectors
 * run over them with a fixed clock. Sources are in each resource's two header lines.
 */
public final class InventoryTextTrees {

    static final Instant TAKEN_AT = Instant.parse("2026-01-15T10:00:00Z");

    static final Clock FIXED = new Clock() {
        @Override
        public Instant now() {
            return TAKEN_AT;
        }

        @Override
        public long nanoTime() {
            return 0;
        }
    };

    private InventoryTextTrees() {
    }

    public static NodeInventory collect(Path root) {
        HostRoot hostRoot = HostRoot.at(root);
        return new InventoryCollector(GpuCollector.forRoot(hostRoot), FIXED).collect(hostRoot);
    }

    /**
     * node_exporter's collector/fixtures/sys.ttar: its InfiniBand, net, PCI, cpufreq and NVMe excerpts are cut from
     * one archive, so they unpack into one tree; plus node_exporter's usr/lib/os-release fixture.
     */
    public static Path nodeExporter(Path dir) throws IOException {
        SysfsFixtures.unpackTtar("node_exporter-class-infiniband.ttar.txt", dir);
        SysfsFixtures.unpackTtar("node_exporter-class-net.ttar.txt", dir);
        HostTtar.unpack("/trees/pci/node_exporter-sys-bus-pci.ttar", dir);
        HostTtar.unpack("/trees/host/node_exporter-sys-host.ttar", dir);
        put(dir, "usr/lib/os-release", resource("/trees/host/node_exporter-usr-lib-os-release.txt"));
        return dir;
    }

    /** prometheus/procfs testdata/fixtures.ttar: class/infiniband, class/net/eth0 and proc/26232/limits as self. */
    public static Path procfs(Path dir) throws IOException {
        SysfsFixtures.unpackTtar("procfs-class-infiniband.ttar.txt", dir);
        SysfsFixtures.unpackTtar("procfs-class-net-eth0.ttar.txt", dir);
        Path root = dir.resolve("fixtures");
        put(root, "proc/self/limits", resource("/trees/host/procfs-proc-26232-limits.txt"));
        return root;
    }

    /** gpud's H100 sys/class/infiniband (8 x ConnectX-7 NDR + a BlueField-3 bond) and gpud's Xid 48/63/94 dmesg. */
    public static Path gpudH100(Path dir) throws IOException {
        copyTree(SysfsFixtures.resourceTree("gpud-h100"), dir);
        Files.delete(dir.resolve("SOURCE.txt"));
        put(dir, "railyard/dmesg.txt", resource("/kernel-log/xid-dmesg-gpud-xid48-63-94-iso.txt"));
        return dir;
    }

    /** The tree under {@code from} copied under {@code to}, links copied as links; returns {@code to}. */
    public static Path copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> all = Files.walk(from)) {
            for (Path p : all.toList()) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) Files.createDirectories(t);
                else Files.copy(p, t, StandardCopyOption.REPLACE_EXISTING, LinkOption.NOFOLLOW_LINKS);
            }
        }
        return to;
    }

    /**
     * RoCE GID tables rebuilt from the show_gids output in nccl#1573 (macvlan pods, GID indexes 4-7 only): show_gids
     * prints exactly gids/N, gid_attrs/types/N and gid_attrs/ndevs/N; the netdevs it names exist as bare directories.
     * The excerpt cuts mlx5_2's second line, so mlx5_2 keeps one GID.
     */
    public static Path nccl1573Roce(Path dir) throws IOException {
        String sample = resource("/sysfs/issue-nccl-1573-gid_attrs-types-read-EINVAL-zero-gid-show_gids.txt");
        for (String line : sample.lines().toList()) {
            String[] f = line.trim().split("\\s+");
            if (!f[0].matches("mlx5_[0-9]+") || f.length < 6) continue;
            String port = "sys/class/infiniband/" + f[0] + "/ports/" + f[1] + "/";
            put(dir, port + "link_layer", "Ethernet\n");
            put(dir, port + "gids/" + f[2], f[3] + "\n");
            put(dir, port + "gid_attrs/types/" + f[2], (f[f.length - 2].equals("v2") ? "RoCE v2" : "IB/RoCE v1") + "\n");
            put(dir, port + "gid_attrs/ndevs/" + f[2], f[f.length - 1] + "\n");
            Files.createDirectories(dir.resolve("sys/class/net/" + f[f.length - 1]));
        }
        return dir;
    }

    /** A resource's text without its two SOURCE/HARDWARE header lines. */
    public static String resource(String name) {
        try (InputStream in = InventoryTextTrees.class.getResourceAsStream(name)) {
            if (in == null) throw new IllegalArgumentException("no test resource " + name);
            List<String> lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
            return String.join("\n", lines.subList(2, lines.size())) + "\n";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void put(Path root, String relative, String text) throws IOException {
        Path p = root.resolve(relative);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text);
    }
}
