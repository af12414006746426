package dev.railyard.cluster;

import dev.railyard.apply.ApplyReport;
import dev.railyard.model.ClusterSpec;
import dev.railyard.model.NodeStatus;
import dev.railyard.report.Json;
import dev.railyard.spec.SpecReader;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A node whose apply wrote files and then exited non-zero (a follow-up failed, or it was interrupted between two
 * files) keeps its report: the coordinator shows what was written there and counts it for the undo command.
 */
class ClusterApplyFailedNodeReportTest {

    @Test
    void aNodeThatWroteFilesAndExitedThreeKeepsItsReport() throws Exception {
        ClusterSpec spec = new SpecReader().read(Path.of("examples/s4-h100-hdr.yaml"));
        ClusterSpec.Node node = spec.nodes().getFirst();
        ApplyReport written = new ApplyReport(Optional.of(node.name()), "/", ApplyReport.Mode.APPLY,
                List.of(new ApplyReport.FileEntry("/etc/sysctl.d/90-railyard-rdma.conf", ApplyReport.FileChange.CREATE, "0644",
                        Optional.empty(), List.of("+x"), List.of())), 1, Optional.of("/var/backups/railyard/20261123T000000Z"),
                List.of(new ApplyReport.FollowUp(List.of("sysctl", "--system"), "sysctl.d changed", false,
                        ApplyReport.Outcome.FAILED, "exit 255: sysctl: permission denied")));
        Launcher launcher = new Launcher() {
            @Override
            public String name() {
                return "fake";
            }

            @Override
            public StepResult prepare(ClusterSpec.Node n, Duration timeout) {
                return new StepResult(n.name(), List.of(), StepStatus.EXITED, 0, "", "", Duration.ZERO, "");
            }

            @Override
            public StepResult run(ClusterSpec.Node n, List<String> args, Duration timeout) {
                return new StepResult(n.name(), args, StepStatus.EXITED, 3, Json.write(written),
                        "railyard: the files were written, but 'sysctl --system' failed (exit 255: sysctl: permission denied)\n",
                        Duration.ZERO, "");
            }

            @Override
            public RemoteProcess start(ClusterSpec.Node n, List<String> args, Duration timeout) {
                throw new UnsupportedOperationException("apply starts no servers");
            }

            @Override
            public void close() {
            }
        };
        List<ClusterApply.NodeResult> results = new ClusterApply(launcher, Duration.ofSeconds(10), 1).run(List.of(node), n -> List.of("apply"));
        ClusterApply.NodeResult r = results.getFirst();
        assertThat(r.status()).isEqualTo(NodeStatus.FAILED);
        assertThat(r.exitCode()).isEqualTo(3);
        assertThat(r.detail()).contains("apply exited 3: railyard: the files were written, but 'sysctl --system' failed");
        assertThat(r.result()).as("the node's report is kept").isPresent();
        assertThat(r.result().get().changed()).isEqualTo(1);
        assertThat(r.result().get().followUps().getFirst().outcome()).isEqualTo(ApplyReport.Outcome.FAILED);
    }
}
