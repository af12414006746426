package dev.railyard.cli;

import dev.railyard.model.Finding;
import dev.railyard.model.NodeOutcome;
import dev.railyard.model.NodeStatus;
import dev.railyard.model.Severity;
import dev.railyard.model.ValidationReport;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** validate's exit code: a script that goes on after exit 0 must be able to trust that every node was proven. */
class ValidateExitCodeTest {

    private static final Finding PASS = Finding.pass("host.memlock", "n1", "unlimited", "unlimited");
    private static final Finding NO_GPU = Finding.of("gpu.count", Severity.UNKNOWN, "n1", "no NVIDIA driver", "", "");
    private static final Finding FAIL = Finding.of("rdma.port.state", Severity.FAIL, "n1 mlx5_0:1", "DOWN", "ACTIVE",
            "ip link set ib0 up");

    private static ValidationReport report(boolean complete, List<NodeOutcome> nodes) {
        return new ValidationReport(ValidationReport.SCHEMA_VERSION, "r", "c", "ssh", Instant.EPOCH,
                Optional.of(Instant.EPOCH.plusSeconds(3)), complete, 1, nodes, List.of(), List.of(), List.of(),
                List.of(), List.of(), List.of());
    }

    private static NodeOutcome node(String name, NodeStatus status, Finding... findings) {
        return new NodeOutcome(name, status, status == NodeStatus.COMPLETED ? "" : "ssh: Connection refused",
                List.of(findings), Optional.empty());
    }

    @Test
    void everyNodeProvenIsZeroEvenWithUnknownReadings() {
        ValidationReport r = report(true, List.of(node("n1", NodeStatus.COMPLETED, PASS, NO_GPU)));
        assertThat(ExitCodes.of(r)).isZero();
        assertThat(ValidateText.verdict(r)).startsWith("VERDICT: UNKNOWN in 3.0 s (exit 0, NOT a pass)");
    }

    @Test
    void anUnreachableNodeIsThreeAndNamed() {
        ValidationReport r = report(true, List.of(node("n1", NodeStatus.COMPLETED, PASS),
                node("n2", NodeStatus.UNREACHABLE), node("n3", NodeStatus.TIMED_OUT)));
        assertThat(ExitCodes.of(r)).isEqualTo(ExitCodes.PREREQUISITE);
        assertThat(ValidateText.verdict(r)).contains("(exit 3, NOT a pass)").contains("not proven: n2 unreachable, n3 timed out");
    }

    /** A script testing for 3 must not miss a node left unproven because a FAIL came with it; the line says both. */
    @Test
    void anUnprovenNodeOutranksAFailAndTheVerdictSaysSo() {
        ValidationReport r = report(true, List.of(node("n1", NodeStatus.COMPLETED, FAIL), node("n2", NodeStatus.UNREACHABLE)));
        assertThat(ExitCodes.of(r)).isEqualTo(ExitCodes.PREREQUISITE);
        assertThat(ValidateText.verdict(r)).startsWith("VERDICT: FAIL in 3.0 s (exit 3, a node not proven outranks the FAIL's 1)")
                .contains("not proven: n2 unreachable");
    }

    @Test
    void aLostNodeIsThreeAndNamedWithItsTime() {
        NodeOutcome lost = new NodeOutcome("n2", NodeStatus.LOST, "n2 lost at 11:02:03Z: ssh: connect to host 10.0.0.2 "
                + "port 22: Connection refused; its tests after that were not run", List.of(PASS), Optional.empty());
        ValidationReport r = report(true, List.of(node("n1", NodeStatus.COMPLETED, PASS), lost));
        assertThat(ExitCodes.of(r)).isEqualTo(ExitCodes.PREREQUISITE);
        assertThat(ValidateText.verdict(r)).contains("(exit 3, NOT a pass)").contains("not proven: n2 lost at 11:02:03Z");
    }

    @Test
    void nodesLeftByAStopAreTheStopsDoingNotAPrerequisite() {
        ValidationReport r = report(false, List.of(node("n1", NodeStatus.COMPLETED, PASS), node("n2", NodeStatus.NOT_RUN)));
        assertThat(ExitCodes.of(r)).isEqualTo(ExitCodes.FAIL_FINDING);
    }

    @Test
    void aWarnWithAnUnreachableNodeDoesNotClaimExitZero() {
        Finding warn = Finding.of("host.cpu.governor", Severity.WARN, "n1", "powersave", "performance",
                "cpupower frequency-set -g performance");
        ValidationReport r = report(true, List.of(node("n1", NodeStatus.COMPLETED, warn), node("n2", NodeStatus.UNREACHABLE)));
        assertThat(ExitCodes.of(r)).isEqualTo(ExitCodes.PREREQUISITE);
        assertThat(ValidateText.verdict(r)).startsWith("VERDICT: WARN in 3.0 s (exit 3, NOT a pass): not proven: n2 unreachable;");
    }

    @Test
    void anInterruptedRunIsOneLikeAnyBenchmarkThatStoppedEarly() {
        ValidationReport r = report(false, List.of(node("n1", NodeStatus.COMPLETED, PASS)));
        assertThat(ExitCodes.of(r)).isEqualTo(ExitCodes.FAIL_FINDING);
        assertThat(ValidateText.verdict(r)).contains("(exit 1, NOT a pass): the run was interrupted");
    }

    /** The text leaves the PASS findings out but still counts them, in the title and the summary line. */
    @Test
    void theSummaryLineCountsThePassFindingsTheTextLeavesOut() {
        Finding warn = Finding.of("host.cpu.governor", Severity.WARN, "n1", "powersave", "performance",
                "cpupower frequency-set -g performance");
        ValidationReport r = report(true, List.of(node("n1", NodeStatus.COMPLETED, PASS, warn)));
        String text = ValidateText.render(r);
        assertThat(text).contains("(all but the 1 PASS)").contains("0 FAIL, 1 WARN, 0 UNKNOWN, 0 INFO, 1 PASS")
                .doesNotContain("PASS (1)");
        assertThat(ValidateText.render(report(true, List.of(node("n1", NodeStatus.COMPLETED, PASS)))))
                .contains("No findings but PASS (1).");
    }
}
