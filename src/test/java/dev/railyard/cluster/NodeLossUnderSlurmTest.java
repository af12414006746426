package dev.railyard.cluster;

import dev.railyard.cli.ExitCodes;
import dev.railyard.model.ClusterSpec;
import dev.railyard.model.NodeOutcome;
import dev.railyard.model.NodeStatus;
import dev.railyard.model.ValidationReport;
import dev.railyard.platform.Clock;
import dev.railyard.report.ValidationReportFiles;
import dev.railyard.spec.SpecReader;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A node that fails mid-run under the real test Slurm (slurmctld, two slurmd): the moment n2 is prepared, its slurmd
 * is killed and slurmctld marks it DOWN, as it does once a node stops answering. validate must report n2 LOST with
 * srun's own words, keep n1 (the allocation survives the loss of one of its nodes), blame nothing, and exit 3.
 */
@Tag("tools")
class NodeLossUnderSlurmTest {

    @TempDir
    Path dir;

    /** The launcher as validate gets it, with the node's failure injected right after {@code victim} is prepared. */
    private static Launcher failingAfterPrepare(SlurmLauncher slurm, String victim, Runnable fault) {
        return new Launcher() {
            @Override public String name() { return slurm.name(); }
            @Override public StepResult prepare(ClusterSpec.Node node, Duration timeout) throws InterruptedException {
                StepResult r = slurm.prepare(node, timeout);
                if (node.name().equals(victim) && RunningSteps.prepared(r)) fault.run();
                return r;
            }
            @Override public StepResult reach(ClusterSpec.Node node, Duration timeout) throws InterruptedException {
                return slurm.reach(node, timeout);
            }
            @Override public StepResult run(ClusterSpec.Node node, List<String> args, Duration timeout) throws InterruptedException {
                return slurm.run(node, args, timeout);
            }
            @Override public RemoteProcess start(ClusterSpec.Node node, List<String> args, Duration timeout) throws InterruptedException {
                return slurm.start(node, args, timeout);
            }
            @Override public void close() { slurm.close(); }
        };
    }

    @Test
    void aNodeSlurmMarksDownMidRunIsLostAndTheOtherIsKept() throws Exception {
        Bundle bundle = TestBundle.build();
        try (TestSlurm slurm = TestSlurm.up()) {
            ClusterSpec spec = new SpecReader().read(TestSlurm.twoNodeSpec(dir, "localhost"));
            Map<String, String> env = slurm.environment();
            Runnable fault = () -> {
                try {
                    long pid = Long.parseLong(Files.readString(TestSlurm.DIR.resolve("slurmd-n2.pid")).strip());
                    ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
                assertThat(slurm.slurm("scontrol", "update", "NodeName=n2", "State=DOWN", "Reason=railyard-test")
                        .ok()).isTrue();
            };
            SlurmLauncher launcher = new SlurmLauncher(spec, new RemoteRailyard.FromBundle(bundle), env,
                    dev.railyard.platform.CommandRunner.system());
            ValidationReport report;
            try (Launcher l = failingAfterPrepare(launcher, "n2", fault)) {
                report = new ClusterValidation(spec, Optional.empty(), l, ValidateSettings.of(false, 64,
                        Duration.ofMinutes(2)), RunRecorder.none(), Progress.none(), Clock.system(), "slurmloss")
                        .run(List.of("railyard", "validate"));
            }
            NodeOutcome n2 = report.nodes().stream().filter(n -> n.node().equals("n2")).findFirst().orElseThrow();
            NodeOutcome n1 = report.nodes().stream().filter(n -> n.node().equals("n1")).findFirst().orElseThrow();
            assertThat(n2.status()).as(n2.detail()).isEqualTo(NodeStatus.LOST);
            assertThat(n2.detail()).matches("n2 lost at \\d\\d:\\d\\d:\\d\\dZ: srun: .*");
            assertThat(n1.status()).as(n1.detail()).isEqualTo(NodeStatus.COMPLETED);
            assertThat(report.culprits()).isEmpty();
            assertThat(report.complete()).isTrue();
            assertThat(ExitCodes.of(report)).isEqualTo(ExitCodes.PREREQUISITE);
            List<Path> files = ValidationReportFiles.write(report, dir.resolve("report"));
            assertThat(files).extracting(f -> f.getFileName().toString())
                    .contains("report.json", "junit.xml", "index.html", "report.md");
            // COMPLETING is Slurm's own clean-up after validate released the job (slower with a node DOWN).
            assertThat(slurm.slurm("squeue", "-h", "-o", "%T").stdout().strip().lines().distinct().toList())
                    .as("validate gave its allocation back").isSubsetOf("COMPLETING", "CANCELLED");
        }
    }
}
