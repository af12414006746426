package dev.railyard.collect;

import dev.railyard.model.NodeInventory;
import dev.railyard.platform.Clock;
import dev.railyard.platform.HostRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The agent's collector, which re-reads the slow parts only every N collections, hands on the same inventory as a
 * full read: port state and counters changed between re-reads show at once; a firmware (or GID table) change shows at
 * the next re-read.
 */
class InventoryRereadTest {

    static final String PORT = "sys/class/infiniband/mlx5_0/ports/1";
    final Clock fixed = new Clock() {
        @Override
        public Instant now() {
            return Instant.parse("2026-11-23T00:00:00Z");
        }

        @Override
        public long nanoTime() {
            return 0;
        }
    };

    @Test
    void dynamicAttributesAreFreshEverySampleAndTheRestAtTheReread(@TempDir Path dir) throws Exception {
        copy(Path.of("src/test/resources/sysfs/gpud-h100"), dir);
        HostRoot root = HostRoot.at(dir);
        InventoryCollector full = new InventoryCollector(GpuCollector.forRoot(root), fixed);
        InventoryCollector agent = new InventoryCollector(GpuCollector.forRoot(root), new KernelLogCollector(), fixed, 3);

        assertThat(agent.collect(root)).isEqualTo(full.collect(root));
        Files.writeString(dir.resolve(PORT + "/state"), "1: DOWN\n");
        Files.writeString(dir.resolve(PORT + "/counters/symbol_error"), "17\n");
        NodeInventory second = agent.collect(root);
        assertThat(second).isEqualTo(full.collect(root));
        assertThat(second.rdmaDevices().getFirst().ports().getFirst().counter("symbol_error").orElse(0L)).isEqualTo(17L);

        Files.writeString(dir.resolve("sys/class/infiniband/mlx5_0/fw_ver"), "28.43.2026\n");
        assertThat(agent.collect(root)).as("third collection: firmware kept from the re-read").isNotEqualTo(full.collect(root));
        assertThat(agent.collect(root)).as("fourth collection re-reads everything").isEqualTo(full.collect(root));
    }

    @Test
    void hwCountersAreCarriedBetweenTheirReadsEveryTenthCollection(@TempDir Path dir) throws Exception {
        copy(Path.of("src/test/resources/sysfs/gpud-h100"), dir);
        HostRoot root = HostRoot.at(dir);
        InventoryCollector agent = new InventoryCollector(GpuCollector.forRoot(root), new KernelLogCollector(), fixed, 60);
        Path hw = dir.resolve(PORT + "/hw_counters/out_of_sequence");
        Files.writeString(hw, "5\n");
        assertThat(hwCounter(agent.collect(root))).isEqualTo(5L);
        Files.writeString(hw, "9\n");
        Files.writeString(dir.resolve(PORT + "/counters/symbol_error"), "3\n");
        for (int i = 1; i < InventoryCollector.HW_COUNTERS_EVERY; i++) {
            NodeInventory inv = agent.collect(root);
            assertThat(hwCounter(inv)).as("collection %d carries the last read", i).isEqualTo(5L);
            assertThat(inv.rdmaDevices().getFirst().ports().getFirst().counter("symbol_error").orElse(0L))
                    .as("judged counters are fresh every time").isEqualTo(3L);
        }
        assertThat(hwCounter(agent.collect(root))).as("the tenth reads them again").isEqualTo(9L);
    }

    private static long hwCounter(NodeInventory inv) {
        return inv.rdmaDevices().getFirst().ports().getFirst().hwCounters().get("out_of_sequence").orElse(-1L);
    }

    private static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) Files.createDirectories(t);
                else Files.copy(p, t, StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }
}
