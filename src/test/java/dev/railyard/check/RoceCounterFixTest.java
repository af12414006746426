package dev.railyard.check;

import dev.railyard.model.CheckId;
import dev.railyard.model.Finding;
import dev.railyard.model.Severity;
import dev.railyard.report.InventoryTextTrees;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * rdma.counters' fix fits the port's link layer: perfquery talks to an InfiniBand port's PMA and fails on RoCE, so a
 * RoCE port (gpud's H100 tree has a BlueField bond beside eight NDR InfiniBand ports) is told where its counters are.
 */
class RoceCounterFixTest {

    @Test
    void roceGetsTheKernelsCountersInfinibandGetsPerfquery(@TempDir Path dir) throws Exception {
        Path tree = InventoryTextTrees.gpudH100(dir.resolve("h100"));
        Files.writeString(tree.resolve("sys/class/infiniband/mlx5_bond_0/ports/1/counters/symbol_error"), "5\n");
        Files.writeString(tree.resolve("sys/class/infiniband/mlx5_0/ports/1/counters/symbol_error"), "7\n");
        List<Finding> findings = new RdmaCountersCheck().run(new CheckInput(InventoryTextTrees.collect(tree),
                Optional.empty(), "n1"));
        // the error counters' own finding; the capture's saturated counters give rdma.counters.saturated beside it
        List<Finding> counters = findings.stream().filter(f -> f.id().equals(CheckId.RDMA_COUNTERS.id())).toList();
        Finding roce = counters.stream().filter(f -> f.subject().equals("mlx5_bond_0:1")).findFirst().orElseThrow();
        Finding ib = counters.stream().filter(f -> f.subject().equals("mlx5_0:1")).findFirst().orElseThrow();
        assertThat(roce.severity()).isEqualTo(Severity.WARN);
        assertThat(roce.remediation()).doesNotContain("perfquery")
                .contains("grep . /sys/class/infiniband/mlx5_bond_0/ports/1/counters/*");
        assertThat(ib.severity()).isEqualTo(Severity.WARN);
        assertThat(ib.remediation()).contains("perfquery -x -C mlx5_0 -P 1");
    }
}
