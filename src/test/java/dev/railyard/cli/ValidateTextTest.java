package dev.railyard.cli;

import dev.railyard.model.Finding;
import dev.railyard.model.Measurement;
import dev.railyard.model.NodeOutcome;
import dev.railyard.model.NodeStatus;
import dev.railyard.model.Severity;
import dev.railyard.model.ValidationReport;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** validate's terminal summary: the numbers first, then the findings, a cluster's repeats folded. */
class ValidateTextTest {

    private static ValidationReport report(List<NodeOutcome> nodes, List<Finding> bench, List<Measurement> measured) {
        return new ValidationReport(ValidationReport.SCHEMA_VERSION, "r", "c", "local", Instant.EPOCH,
                Optional.of(Instant.EPOCH.plusSeconds(2)), true, 0, nodes, List.of(), List.of(), List.of(), List.of(),
                bench, List.of(), measured);
    }

    @Test
    void aSingleNodeShowsItsLoopbackNumberAndWhatWasSkipped() {
        Finding loop = Finding.pass("bench.tcp.loopback", "vm 127.0.0.1", "8.1 Gb/s in 1 s over loopback", "a path");
        Finding noGpu = Finding.of("bench.gpu", Severity.INFO, "vm", "no NVIDIA driver/GPU: GPU skipped (no NVML)",
                "GPUs to benchmark", "");
        String text = ValidateText.render(report(List.of(new NodeOutcome("vm", NodeStatus.COMPLETED, "", List.of(), Optional.empty())),
                List.of(loop, noGpu), List.of(new Measurement("loopback TCP", "vm 127.0.0.1", 8.1, "Gb/s"))));
        assertThat(text).contains("Measurements\n  BENCHMARK     WHERE         RESULT\n  loopback TCP  vm 127.0.0.1  8.10 Gb/s\n"
                + "  GPU copy      vm            not measured: no NVIDIA driver/GPU: GPU skipped (no NVML)\n");
        assertThat(text.indexOf("Measurements")).isLessThan(text.indexOf("Checks on c"));
        assertThat(text).contains("1 benchmark was skipped (see INFO): not proven by this run.");
    }

    @Test
    void manyCleanNodesAreOneLineAndTheirSharedWarningOneRow() {
        List<NodeOutcome> nodes = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            String n = String.format("node%02d", i);
            List<Finding> f = List.of(Finding.of("host.net.buffers", Severity.WARN, n + " net.core.rmem_max", "4194304",
                    ">= 268435456", "sysctl -w net.core.rmem_max=268435456"));
            nodes.add(new NodeOutcome(n, i == 7 ? NodeStatus.UNREACHABLE : NodeStatus.COMPLETED, i == 7 ? "ssh: refused" : "",
                    i < 8 ? f : List.of(), Optional.empty()));
        }
        String text = ValidateText.render(report(nodes, List.of(), List.of()));
        assertThat(text).contains("  node07  UNREACHABLE  ssh: refused\n").contains("  32 other nodes COMPLETED without a FAIL or WARN finding\n")
                .doesNotContain("node20")
                .contains("8 nodes (node00, node01, node02, … node07)");
        assertThat(text.lines().filter(l -> l.contains("4194304")).count()).isEqualTo(1);
    }
}
