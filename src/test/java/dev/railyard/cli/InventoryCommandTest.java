package dev.railyard.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.railyard.report.InventoryTextTrees;
import dev.railyard.report.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** railyard inventory end to end through Main's command line, on real captured trees and on an empty node. */
class InventoryCommandTest {

    private static CliRun run(String... args) {
        return CliRun.of(args);
    }

    @Test
    void textOfTheNodeExporterTree(@TempDir Path dir) throws IOException {
        Path root = InventoryTextTrees.nodeExporter(dir);
        CliRun r = run("inventory", "--root", root.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.err()).isEmpty();
        assertThat(r.out()).startsWith("Node unknown  root " + root + "  at ")
                .contains("  OS Ubuntu 20.04.2 LTS  kernel absent (no proc/sys/kernel/osrelease)")
                .contains("    port 1  ACTIVE/LinkUp  40 Gb/sec (4X QDR)  InfiniBand")
                .contains("      rx 17.7 MiB  tx 14.2 MiB  errors port_xmit_discards=5")
                .contains("  governors  powersave x4");
    }

    @Test
    void anEmptyNodeSaysNoneFoundAndExitsZero(@TempDir Path dir) throws IOException {
        java.nio.file.Files.createDirectories(dir.resolve("sys"));
        CliRun r = run("inventory", "--root", dir.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("GPUs (0)", "RDMA (0 devices, 0 ports)", "Network (0 interfaces)", "PCIe (0 GPUs, 0 NICs)",
                "NVMe (0)   none found");
        assertThat(r.out().split("none found", -1)).hasSize(6);
    }

    /** JSON: readings as {"state": present|absent|failed, ...}; every inventory key present. */
    @Test
    void jsonOfTheProcfsTreeParsesWithTheModelsKeys(@TempDir Path dir) throws IOException {
        Path root = InventoryTextTrees.procfs(dir);
        CliRun r = run("inventory", "--root", root.toString(), "--format", "json");
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode json = Json.mapper().readTree(r.out());
        List<String> keys = new ArrayList<>();
        json.fieldNames().forEachRemaining(keys::add);
        assertThat(keys).containsExactlyInAnyOrder("schemaVersion", "hostname", "takenAt", "root", "host", "pciDevices", "gpu",
                "rdmaDevices", "interfaces", "topology", "xidEvents", "unlisted");
        assertThat(json.get("root").asText()).isEqualTo(root.toString());
        assertThat(json.at("/gpu/nvml/state").asText()).isEqualTo("absent");
        assertThat(json.at("/gpu/nvml/reason").asText()).startsWith("NVML unavailable: captured tree ").contains("NVML is only asked");
        JsonNode mlx5 = json.get("rdmaDevices").get(2);
        assertThat(mlx5.get("name").asText()).isEqualTo("mlx5_0");
        assertThat(mlx5.at("/nodeGuid/value").asText()).isEqualTo("0a7f:bc12:45ef:d23b");
        assertThat(mlx5.at("/hcaType/value").asText()).isEqualTo("MT4118");
        assertThat(mlx5.at("/ports/0/physState/value/name").asText()).isEqualTo("ACTIVE");
        assertThat(mlx5.at("/ports/0/rate/value/gbps").asDouble()).isEqualTo(25.0);
        assertThat(mlx5.at("/ports/0/lid/state").asText()).isEqualTo("absent");
        assertThat(mlx5.at("/ports/0/lid/reason").asText()).isEqualTo("no sys/class/infiniband/mlx5_0/ports/1/lid");
        assertThat(json.at("/host/memlock/value/bytes").asLong()).isEqualTo(65536);
        assertThat(json.at("/xidEvents/reason").asText()).isEqualTo("no railyard/dmesg.txt in the capture");
        assertThat(json.at("/interfaces/0/name").asText()).isEqualTo("eth0");
    }

    @Test
    void junitFormatIsAUsageError(@TempDir Path dir) {
        CliRun r = run("inventory", "--root", dir.toString(), "--format", "junit");
        assertThat(r.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.out()).isEmpty();
    }
}
