package dev.railyard.cluster;

import dev.railyard.cli.ExitCodes;
import dev.railyard.model.NodeOutcome;
import dev.railyard.model.NodeStatus;
import dev.railyard.model.PairOutcome;
import dev.railyard.model.PairResult;
import dev.railyard.model.ValidationReport;
import dev.railyard.platform.Clock;
import dev.railyard.report.ValidationReportFiles;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A node that dies in the middle of the pair stage, on four namespace hosts with their own sshd: the fault is
 * injected the moment the first pair result is recorded (an event, not a delay), on the client of that pair, which
 * then has no Railyard running on it and must be reached again for each of its remaining pairs. That node must end
 * LOST with the time and ssh's own words; its remaining pairs NOT_RUN, never retested and never FAIL; no culprit at
 * all (every link that ran is healthy); exit 3; and the report files complete.
 */
@Tag("tools")
class NodeLossOverSshTest {

    static Bundle bundle;
    TestCluster cluster;

    @TempDir
    Path dir;

    @BeforeAll
    static void build() {
        TestCluster.requireTools();
        bundle = TestBundle.build();
    }

    @AfterEach
    void down() {
        if (cluster != null) cluster.close();
    }

    /** Runs validate over ssh and calls {@code fault} with the client of the first pair recorded, once. */
    private Run validateWithFault(String fault) throws Exception {
        cluster = TestCluster.up("loss", 4, "--rate", "400mbit");
        AtomicReference<String> victim = new AtomicReference<>();
        RecordingRecorder recorder = new RecordingRecorder() {
            @Override
            public void pairMeasured(String runId, PairResult result) {
                super.pairMeasured(runId, result);
                if (victim.compareAndSet(null, result.test().client())) cluster.verb(fault, result.test().client());
            }
        };
        SshLauncher ssh = new SshLauncher(cluster.spec(), new RemoteRailyard.FromBundle(bundle));
        ClusterValidation v = new ClusterValidation(cluster.spec(), Optional.empty(), ssh,
                ValidateSettings.of(false, 64, Duration.ofMinutes(2)), recorder, Progress.none(), Clock.system(), "loss");
        ValidationReport report;
        try (ssh) {
            report = v.run(List.of("railyard", "validate"));
        }
        List<Path> files = ValidationReportFiles.write(report, dir.resolve("report"));
        return new Run(report, victim.get(), files);
    }

    record Run(ValidationReport report, String victim, List<Path> files) {
        NodeOutcome node(String name) {
            return report.nodes().stream().filter(n -> n.node().equals(name)).findFirst().orElseThrow();
        }
    }

    private static void assertLostAndNothingBlamed(Run r, String transportWords) throws Exception {
        ValidationReport report = r.report();
        NodeOutcome lost = r.node(r.victim());
        assertThat(lost.status()).as(lost.detail()).isEqualTo(NodeStatus.LOST);
        assertThat(lost.detail()).matches(r.victim() + " lost at \\d\\d:\\d\\d:\\d\\dZ: ssh: .*")
                .containsPattern(transportWords);
        assertThat(lost.findings()).as("what the node measured before it went is kept").isNotEmpty();
        assertThat(report.nodes()).filteredOn(n -> !n.node().equals(r.victim()))
                .allSatisfy(n -> assertThat(n.status()).isEqualTo(NodeStatus.COMPLETED));
        assertThat(report.culprits()).as("no culprit from pairs that did not run").isEmpty();
        assertThat(report.pairs()).as("every pair of 4 nodes is accounted for, none retested").hasSize(6)
                .allSatisfy(p -> assertThat(p.attempt()).isEqualTo(1));
        assertThat(report.pairs()).as("a pair either ran or was not run for the lost node; none FAILED")
                .noneMatch(p -> p.outcome() instanceof PairOutcome.Failed);
        List<PairResult> notRun = report.pairs().stream().filter(p -> p.outcome() instanceof PairOutcome.NotRun).toList();
        assertThat(notRun).isNotEmpty().allSatisfy(p -> {
            assertThat(List.of(p.test().client(), p.test().server())).contains(r.victim());
            assertThat(((PairOutcome.NotRun) p.outcome()).notRun()).startsWith(r.victim() + " lost at ")
                    .doesNotContain("please report it");
        });
        assertThat(report.complete()).isTrue();
        assertThat(ExitCodes.of(report)).isEqualTo(ExitCodes.PREREQUISITE);
        String junit = Files.readString(r.files().stream().filter(f -> f.endsWith("junit.xml")).findFirst().orElseThrow());
        assertThat(junit).as("the pairs not run are skipped in JUnit, with the reason")
                .containsPattern("name=\"railyard.validate.pairs\" tests=\"\\d+\" failures=\"0\" errors=\"0\" skipped=\""
                        + notRun.size() + "\"")
                .contains(r.victim() + " lost at");
        assertThat(r.files()).extracting(f -> f.getFileName().toString())
                .contains("report.json", "junit.xml", "index.html", "report.md");
    }

    @Test
    void sshdKilledMidRunLeavesThatNodeLostAndNoLinkBlamed() throws Exception {
        // the listener and every session it serves, the node's master connection among them (pkill sshd)
        Run r = validateWithFault("kill-sshd");
        assertLostAndNothingBlamed(r, "Connection refused");
    }

    /**
     * sshd stops listening but its sessions live on (systemd's KillMode=process for ssh.service): the node's master
     * connection still carries its steps, so its pairs run and count, and nothing is lost or blamed.
     */
    @Test
    void sshdListenerStoppedMidRunWhileTheMasterLivesLeavesEveryPairMeasured() throws Exception {
        Run r = validateWithFault("stop-sshd");
        try {
            assertThat(r.node(r.victim()).status()).as(r.node(r.victim()).detail()).isEqualTo(NodeStatus.COMPLETED);
            assertThat(r.report().pairs()).hasSize(6)
                    .allSatisfy(p -> assertThat(p.outcome()).as(p.toString()).isInstanceOf(PairOutcome.Measured.class));
            assertThat(r.report().culprits()).isEmpty();
            assertThat(ExitCodes.of(r.report())).isZero();
        } finally {
            cluster.verb("start-sshd", r.victim());
        }
    }

    @Test
    void hostKilledMidRunLeavesThatNodeLostAndNoLinkBlamed() throws Exception {
        Run r = validateWithFault("kill-host");
        assertLostAndNothingBlamed(r, "timed out|No route to host|Connection closed|Connection reset|not responding");
    }
}
