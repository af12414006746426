package dev.railyard.report;

import com.fasterxml.jackson.databind.JsonNode;
import dev.railyard.check.CheckTrees;
import dev.railyard.model.Finding;
import dev.railyard.model.NodeInventory;
import dev.railyard.model.Severity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Values from a node tree are cut when long and never reach a terminal as escape sequences. */
class ReportEscapingTest {

    private static final String RED = "\u001b[31mOK\u001b[0m";

    @TempDir
    Path dir;

    @Test
    void inventoryTextEscapesTerminalSequencesAndCutsLongValues() throws Exception {
        Path root = CheckTrees.connectx3(dir);
        CheckTrees.write(root, "sys/class/infiniband/mlx4_0/fw_ver", "2.31.5050" + RED + "\n");
        CheckTrees.write(root, "sys/class/infiniband/mlx4_0/board_id", "B".repeat(10_000) + "\n");
        CheckTrees.write(root, "proc/sys/kernel/hostname", "no\u0007de\u001b]0;pwned\n");
        String text = InventoryText.render(CheckTrees.collect(root), new TextStyle(10_000, false));
        assertThat(text).doesNotContain("\u001b").doesNotContain("\u0007")
                .contains("2.31.5050\\e[31mOK\\e[0m").contains("no\\x07de\\e]0;pwned")
                .contains("…[cut: 10000 chars]").doesNotContain("B".repeat(600));
    }

    @Test
    void inventoryJsonStaysValidAndCutsLongValues() throws Exception {
        Path root = CheckTrees.connectx3(dir);
        CheckTrees.write(root, "sys/class/infiniband/mlx4_0/fw_ver", "1.0" + RED + "\n");
        CheckTrees.write(root, "sys/class/infiniband/mlx4_0/board_id", "B".repeat(100_000) + "\n");
        NodeInventory inv = CheckTrees.collect(root);
        String json = Json.write(inv);
        assertThat(json.length()).isLessThan(100_000);
        JsonNode mlx4 = null;
        for (JsonNode d : Json.mapper().readTree(json).at("/rdmaDevices")) if (d.at("/name").asText().equals("mlx4_0")) mlx4 = d;
        assertThat(mlx4).isNotNull();
        assertThat(mlx4.at("/firmwareVersion/value").asText()).isEqualTo("1.0" + RED);
        assertThat(mlx4.at("/boardId/value").asText()).endsWith("…[cut: 100000 chars]").hasSizeLessThan(4200);
    }

    @Test
    void findingsTextEscapesWhatTheNodeReported() {
        Finding f = Finding.of("rdma.port.state", Severity.FAIL, "mlx5_0:1\u001b[2J", "1: DOWN\r\u001b[32mPASS",
                "4: ACTIVE", "ibv_devinfo \u009b31m");
        String text = FindingsText.render("n\u001b", List.of(f));
        assertThat(text).doesNotContain("\u001b").doesNotContain("\r").doesNotContain("\u009b")
                .contains("mlx5_0:1\\e[2J").contains("1: DOWN\\r\\e[32mPASS").contains("\\x9b31m");
    }
}
