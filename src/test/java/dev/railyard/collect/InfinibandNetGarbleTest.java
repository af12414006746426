package dev.railyard.collect;

import dev.railyard.model.RdmaDevice;
import dev.railyard.model.Reading;
import dev.railyard.platform.HostRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

/** Seeded truncations and garbles of every real sample: the readers give readings, never exceptions. */
class InfinibandNetGarbleTest {

    @TempDir
    Path dir;

    private static void garble(Path tree, Random rnd) throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.walk(tree)) {
            files = s.filter(p -> Files.isRegularFile(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)).toList();
        }
        for (Path f : files) {
            if (rnd.nextInt(3) != 0) continue;
            byte[] b = Files.readAllBytes(f);
            byte[] out = switch (rnd.nextInt(4)) {
                case 0 -> java.util.Arrays.copyOf(b, b.length == 0 ? 0 : rnd.nextInt(b.length));
                case 1 -> { byte[] c = b.clone(); if (c.length > 0) c[rnd.nextInt(c.length)] = (byte) rnd.nextInt(256); yield c; }
                case 2 -> "N/A (no PMA)\n".getBytes(StandardCharsets.UTF_8);
                default -> ("9".repeat(25) + ": X (" + rnd.nextInt() + "X").getBytes(StandardCharsets.UTF_8);
            };
            Files.write(f, out);
        }
    }

    @Test
    void garbledTreesNeverThrow() throws Exception {
        for (int seed = 0; seed < 5; seed++) {
            Random rnd = new Random(seed);
            Path procfs = Files.createDirectories(dir.resolve("p" + seed));
            SysfsFixtures.unpackTtar("procfs-class-infiniband.ttar.txt", procfs);
            SysfsFixtures.unpackTtar("procfs-class-net-eth0.ttar.txt", procfs);
            Path nodeExporter = Files.createDirectories(dir.resolve("n" + seed));
            SysfsFixtures.unpackTtar("node_exporter-class-infiniband.ttar.txt", nodeExporter);
            SysfsFixtures.unpackTtar("node_exporter-class-net.ttar.txt", nodeExporter);
            garble(procfs, rnd);
            garble(nodeExporter, rnd);
            for (HostRoot host : List.of(HostRoot.at(procfs.resolve("fixtures")), HostRoot.at(nodeExporter))) {
                assertThatCode(() -> {
                    List<RdmaDevice> rdma = new InfinibandCollector().collect(host);
                    assertThat(rdma).isNotEmpty();
                    assertThat(new NetCollector().collect(host, rdma)).isNotEmpty();
                }).as("seed %d, %s", seed, host).doesNotThrowAnyException();
            }
        }
    }

    @Test
    void truncatedIpJsonIsAReadingNeverAnException() {
        String json = NetCollectorTest.IP_JSON;
        Random rnd = new Random(7);
        for (int i = 0; i < 200; i++) {
            String cut = json.substring(0, rnd.nextInt(json.length()));
            assertThatCode(() -> assertThat(IpAddressTable.parse("x", cut)).isInstanceOfAny(Reading.Present.class, Reading.Failed.class))
                    .doesNotThrowAnyException();
        }
    }

    /**
     * A full GID table (256 entries, 4 in use) on 3 devices (kept small: creating the files dominates the test);
     * the zero entries cost one read each and their attributes are never read.
     */
    @Test
    void gidScanReadsOnlyTheUsedEntriesAttributes() throws Exception {
        for (int d = 0; d < 3; d++) {
            Path port = Files.createDirectories(dir.resolve("sys/class/infiniband/mlx5_" + d + "/ports/1"));
            Files.writeString(port.resolve("link_layer"), "Ethernet\n");
            Files.createDirectories(port.resolve("gids"));
            Files.createDirectories(port.resolve("gid_attrs/types"));
            Files.createDirectories(port.resolve("gid_attrs/ndevs"));
            for (int i = 0; i < 256; i++) {
                boolean used = i < 4;
                Files.writeString(port.resolve("gids/" + i), used ? "fe80:0000:0000:0000:a4ed:ccff:fe8b:199" + i + "\n"
                        : "0000:0000:0000:0000:0000:0000:0000:0000\n");
                // unused entries: attribute "files" that cannot be read, as EINVAL on a real kernel
                if (used) Files.writeString(port.resolve("gid_attrs/types/" + i), i % 2 == 0 ? "IB/RoCE v1\n" : "RoCE v2\n");
                else Files.createDirectories(port.resolve("gid_attrs/types/" + i));
                Files.writeString(port.resolve("gid_attrs/ndevs/" + i), used ? "eth" + d + "\n" : "\n");
            }
        }
        List<RdmaDevice> all = List.of();
        for (int run = 0; run < 3; run++) {
            long t0 = System.nanoTime();
            all = new InfinibandCollector().collect(HostRoot.at(dir));
            System.out.println("GID scan, 3 devices x 256 entries, run " + run + ": " + (System.nanoTime() - t0) / 1_000_000 + " ms");
        }
        assertThat(all).hasSize(3).allSatisfy(d -> assertThat(d.ports().getFirst().gids()).hasSize(4)
                .allSatisfy(g -> assertThat(g.type()).isInstanceOf(Reading.Present.class)));
    }
}
