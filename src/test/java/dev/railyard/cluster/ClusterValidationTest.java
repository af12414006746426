package dev.railyard.cluster;

import dev.railyard.model.ClusterSpec;
import dev.railyard.model.CulpritKind;
import dev.railyard.model.Finding;
import dev.railyard.model.NodeOutcome;
import dev.railyard.model.NodeStatus;
import dev.railyard.model.PairResult;
import dev.railyard.model.Severity;
import dev.railyard.model.ValidationReport;
import dev.railyard.platform.Clock;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The whole orchestration against a stub launcher that answers with synthetic JSON. */
class ClusterValidationTest {

    private static final ValidateSettings QUICK = ValidateSettings.of(false, 64, Duration.ofSeconds(30));

    private static ClusterValidation validation(ClusterSpec spec, StubLauncher stub, RunRecorder recorder, ValidateSettings s) {
        return new ClusterValidation(spec, Optional.of("c3BlYw"), stub, s, recorder, Progress.none(), Clock.system(), "run-1");
    }

    private static NodeOutcome node(ValidationReport r, String name) {
        return r.nodes().stream().filter(n -> n.node().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void aHealthyClusterRunsEveryPairOnceInNMinusOneRoundsAndPasses() throws Exception {
        ClusterSpec spec = PairFixtures.spec(4, 2, false);
        StubLauncher stub = new StubLauncher(spec, (net, c, s, kind, call) -> 9.4);
        RecordingRecorder rec = new RecordingRecorder();
        ValidationReport r = validation(spec, stub, rec, QUICK).run(List.of("railyard", "validate"));
        assertThat(r.complete()).isTrue();
        assertThat(r.rounds()).isEqualTo(3);
        assertThat(r.pairs()).hasSize(12).allSatisfy(p -> assertThat(p.attempt()).isEqualTo(1));
        assertThat(r.nodes()).extracting(NodeOutcome::status).containsOnly(NodeStatus.COMPLETED);
        assertThat(r.nodes().getFirst().findings()).extracting(Finding::id).containsExactly("host.memlock");
        assertThat(r.culprits()).isEmpty();
        assertThat(r.severity()).isIn(Severity.PASS, Severity.INFO);
        assertThat(r.pairFindings()).extracting(f -> f.severity() + " " + f.subject())
                .containsExactly("PASS rail0", "PASS rail1");
        assertThat(r.clusterFindings()).filteredOn(f -> f.id().equals("cluster.mtu")).extracting(Finding::severity)
                .containsOnly(Severity.PASS);
        assertThat(rec.started).hasSize(1);
        assertThat(rec.nodes).hasSize(4);
        assertThat(rec.pairs).hasSize(12);
        assertThat(rec.findingScopes).containsExactly("cluster", "pairs", "bench");
        assertThat(rec.finished).containsExactly(r.severity());
    }

    @Test
    void pairFindingsFollowTheSpecsNetworkOrderWhicheverNetworkFinishesFirst() throws Exception {
        ClusterSpec spec = PairFixtures.spec(4, 2, false);
        StubLauncher stub = new StubLauncher(spec, (net, c, s, kind, call) -> {
            if (net.equals("rail0")) {
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return 9.4;
        });
        ValidationReport r = validation(spec, stub, RunRecorder.none(), QUICK).run(List.of());
        assertThat(r.pairFindings()).extracting(f -> f.severity() + " " + f.subject())
                .containsExactly("PASS rail0", "PASS rail1");
    }

    @Test
    void eachNodeStartsOneTcpServerPerNetworkForTheWholeStageAndItIsStoppedAfterwards() throws Exception {
        ClusterSpec spec = PairFixtures.spec(4, 2, false);
        StubLauncher stub = new StubLauncher(spec, (net, c, s, kind, call) -> 9.4);
        stub.serversStayAlive = true;
        ValidationReport r = validation(spec, stub, RunRecorder.none(), QUICK).run(List.of());
        assertThat(r.pairs()).hasSize(12);
        assertThat(stub.serverStarts).as("one start per node and network, not per pair").doesNotHaveDuplicates()
                .hasSizeLessThanOrEqualTo(8).allSatisfy(a -> assertThat(a).contains("bench tcp server").doesNotContain("--once"));
        assertThat(stub.serversRunning.get()).as("every server stopped when the pair stage ends").isZero();
    }

    @Test
    void aSlowLinkIsRetestedOnceAndNamedAsTheCulprit() throws Exception {
        ClusterSpec spec = PairFixtures.spec(6, 1, false);
        StubLauncher stub = new StubLauncher(spec, (net, c, s, kind, call) ->
                (c.equals("n002") && s.equals("n005")) || (c.equals("n005") && s.equals("n002")) ? 2.3 : 9.4);
        ValidationReport r = validation(spec, stub, RunRecorder.none(), QUICK).run(List.of());
        assertThat(r.rounds()).isEqualTo(5);
        List<PairResult> retests = r.pairs().stream().filter(p -> p.attempt() == 2).toList();
        assertThat(retests).singleElement().satisfies(p -> assertThat(p.test().subject()).isEqualTo("rail0 n002<->n005"));
        assertThat(r.culprits()).singleElement().satisfies(c -> {
            assertThat(c.kind()).isEqualTo(CulpritKind.LINK);
            assertThat(c.nodes()).containsExactly("n002", "n005");
            assertThat(c.evidence()).contains("2.30 Gb/s");
        });
        assertThat(r.severity()).isEqualTo(Severity.FAIL);
        assertThat(r.pairFindings()).filteredOn(f -> f.severity() == Severity.FAIL).singleElement()
                .satisfies(f -> assertThat(f.observed()).contains("retested: attempt 2"));
    }

    @Test
    void aPairThatRecoversOnRetestIsNotACulprit() throws Exception {
        ClusterSpec spec = PairFixtures.spec(4, 1, false);
        StubLauncher stub = new StubLauncher(spec, (net, c, s, kind, call) -> c.equals("n001") && s.equals("n002") && call == 1 ? 1.0 : 9.4);
        ValidationReport r = validation(spec, stub, RunRecorder.none(), QUICK).run(List.of());
        assertThat(r.pairs()).filteredOn(p -> p.attempt() == 2).hasSize(1);
        assertThat(r.culprits()).isEmpty();
        assertThat(r.severity()).isNotEqualTo(Severity.FAIL);
    }

    @Test
    void anUnreachableNodeIsReportedAndTheRestCompletes() throws Exception {
        ClusterSpec spec = PairFixtures.spec(4, 1, false);
        StubLauncher stub = new StubLauncher(spec, (net, c, s, kind, call) -> 9.4);
        stub.unreachable.add("n004");
        ValidationReport r = validation(spec, stub, RunRecorder.none(), QUICK).run(List.of());
        NodeOutcome n4 = node(r, "n004");
        assertThat(n4.status()).isEqualTo(NodeStatus.UNREACHABLE);
        assertThat(n4.detail()).contains("Connection refused");
        assertThat(r.nodes()).filteredOn(n -> !n.node().equals("n004")).extracting(NodeOutcome::status).containsOnly(NodeStatus.COMPLETED);
        assertThat(r.pairs()).hasSize(3).noneMatch(p -> p.test().involves("n004"));
        assertThat(r.clusterFindings()).filteredOn(f -> f.subject().contains("n004"))
                .isNotEmpty().extracting(Finding::severity).containsOnly(Severity.UNKNOWN);
        assertThat(r.severity()).as("a node not proven cannot pass").isEqualTo(Severity.UNKNOWN);
        assertThat(r.pairFindings()).filteredOn(f -> f.severity() == Severity.PASS).singleElement()
                .satisfies(f -> assertThat(f.observed()).as("the network's PASS names the node it could not test")
                        .startsWith("3 of 3 pairs within expect; median 9.4").endsWith("; not tested: n004 (unreachable)"));
    }

    @Test
    void aStepThatTimesOutMarksItsNode() throws Exception {
        ClusterSpec spec = PairFixtures.spec(3, 1, false);
        StubLauncher stub = new StubLauncher(spec, (net, c, s, kind, call) -> 9.4);
        stub.inventoryTimesOut.add("n002");
        ValidationReport r = validation(spec, stub, RunRecorder.none(), QUICK).run(List.of());
        assertThat(node(r, "n002").status()).isEqualTo(NodeStatus.TIMED_OUT);
        assertThat(node(r, "n002").detail()).startsWith("inventory: killed with its process tree after the step timeout");
        assertThat(r.pairs()).hasSize(1);
    }

    @Test
    void anInterruptedRunKeepsWhatWasMeasured() throws Exception {
        ClusterSpec spec = PairFixtures.spec(4, 1, false);
        StubLauncher stub = new StubLauncher(spec, (net, c, s, kind, call) -> 9.4);
        stub.blockAtClientCall = 4; // rounds have 2 pairs: round 1 done, round 2 half done
        RecordingRecorder rec = new RecordingRecorder();
        ClusterValidation v = validation(spec, stub, rec, ValidateSettings.of(false, 2, Duration.ofSeconds(30)));
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread t = Thread.ofPlatform().start(() -> {
            try {
                v.run(List.of());
            } catch (Throwable e) {
                thrown.set(e);
            }
        });
        assertThat(stub.blocked.await(20, TimeUnit.SECONDS)).isTrue();
        t.interrupt();
        t.join(20_000);
        assertThat(thrown.get()).isInstanceOf(InterruptedException.class);
        ValidationReport r = v.report(false);
        assertThat(r.complete()).isFalse();
        assertThat(r.pairs()).hasSize(3);
        assertThat(rec.pairs).hasSize(3);
        assertThat(rec.finished).as("an interrupted run is not finished in the history").isEmpty();
        assertThat(r.nodes()).extracting(NodeOutcome::status).containsOnly(NodeStatus.COMPLETED);
        assertThat(r.severity()).isEqualTo(Severity.UNKNOWN);
    }

    /**
     * A run stopped through its cancellation token in round 2 of 3: the pairs never tested are UNKNOWN findings (JUnit
     * skips them with the reason), the network's PASS says how many were not tested, the report has no end time, and
     * its rounds are those that started.
     */
    @Test
    void aStoppedRunSaysWhichPairsWereNeverTestedAndHasNoEnd() throws Exception {
        ClusterSpec spec = PairFixtures.spec(4, 1, false);
        StubLauncher stub = new StubLauncher(spec, (net, c, s, kind, call) -> 9.4);
        stub.blockAtClientCall = 4; // round 1 done, round 2 half done
        ClusterValidation v = validation(spec, stub, RunRecorder.none(), ValidateSettings.of(false, 2, Duration.ofSeconds(30)));
        dev.railyard.platform.Cancellation stop = dev.railyard.platform.Cancellation.create();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread t = Thread.ofPlatform().start(() -> {
            try {
                v.run(List.of(), stop);
            } catch (Throwable e) {
                thrown.set(e);
            }
        });
        assertThat(stub.blocked.await(20, TimeUnit.SECONDS)).isTrue();
        stop.cancel("SIGINT");
        t.join(20_000);
        assertThat(thrown.get()).isInstanceOf(InterruptedException.class);
        ValidationReport r = v.report(false);
        assertThat(r.finishedAt()).as("a stopped run did not finish").isEmpty();
        assertThat(r.rounds()).as("rounds that started, of 3 planned").isEqualTo(2);
        List<Finding> notTested = r.pairFindings().stream().filter(f -> f.severity() == Severity.UNKNOWN).toList();
        assertThat(notTested).hasSize(6 - 3).allSatisfy(f ->
                assertThat(f.observed()).isEqualTo(ClusterValidation.STOPPED_BEFORE));
        assertThat(r.pairFindings()).filteredOn(f -> f.severity() == Severity.PASS).singleElement()
                .satisfies(f -> assertThat(f.observed()).startsWith("3 of 3 pairs within expect").endsWith("; 3 not tested"));
        String junit = dev.railyard.report.ValidationJUnit.render(r);
        assertThat(junit).containsPattern("name=\"railyard.validate.pairs\" tests=\"4\" failures=\"0\" errors=\"0\" skipped=\"3\"")
                .contains("the run was stopped before this pair was tested");
    }

    /**
     * Ctrl-C reaches the steps' process group before the JVM's shutdown hook interrupts validate's thread (CI saw it):
     * a step stopped so is the run being stopped, not a node that failed, and the report must not call itself complete.
     */
    @Test
    void aStepStoppedByTheUsersSignalStopsTheRunEvenBeforeItsThreadIsInterrupted() throws Exception {
        ClusterSpec spec = PairFixtures.spec(3, 1, false);
        StubLauncher stub = new StubLauncher(spec, (net, c, s, kind, call) -> 9.4);
        stub.inventoryStopped.add("n002");
        RecordingRecorder rec = new RecordingRecorder();
        ClusterValidation v = validation(spec, stub, rec, QUICK);
        assertThatThrownBy(() -> v.run(List.of())).isInstanceOf(InterruptedException.class);
        assertThat(stub.clientCalls()).as("no pair test after the stop").isZero();
        ValidationReport r = v.report(false);
        assertThat(r.complete()).isFalse();
        assertThat(node(r, "n002").status()).isEqualTo(NodeStatus.NOT_RUN);
        assertThat(rec.finished).as("a stopped run is not finished in the history").isEmpty();
    }

    @Test
    void aSlowPairHoldsUpOnlyItsOwnTwoNodesNotTheNextRound() throws Exception {
        ClusterSpec spec = PairFixtures.spec(8, 1, false);
        StubLauncher stub = new StubLauncher(spec, (net, c, s, kind, call) -> 9.4);
        stub.blockAtClientCall = 1; // the first pair of round 1 hangs until the run is interrupted
        ClusterValidation v = validation(spec, stub, RunRecorder.none(), ValidateSettings.of(false, 64, Duration.ofSeconds(30)));
        Thread t = Thread.ofPlatform().start(() -> {
            try {
                v.run(List.of());
            } catch (Throwable e) {
                // interrupted below
            }
        });
        try {
            assertThat(stub.blocked.await(20, TimeUnit.SECONDS)).isTrue();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (stub.clientCalls() < 6 && System.nanoTime() < deadline) Thread.sleep(10);
            // round 1's other three pairs, then the round-2 pairs whose nodes are both free: two of its four
            assertThat(stub.clientCalls()).as("pairs run past round 1 while one of its pairs still runs").isGreaterThanOrEqualTo(6);
        } finally {
            t.interrupt();
            t.join(20_000);
        }
    }

    @Test
    void fullAddsLatencyAndTcpBesideRdma() throws Exception {
        ClusterSpec spec = PairFixtures.spec(3, 1, true);
        StubLauncher stub = new StubLauncher(spec, (net, c, s, kind, call) -> kind.endsWith("lat") ? 1.0 : 38.0);
        ValidationReport r = validation(spec, stub, RunRecorder.none(), ValidateSettings.of(true, 64, Duration.ofSeconds(30))).run(List.of());
        assertThat(r.pairs()).hasSize(3 * 4);
        assertThat(r.pairs()).extracting(p -> p.test().kind().name()).containsOnly("TCP_BANDWIDTH", "TCP_LATENCY",
                "RDMA_BANDWIDTH", "RDMA_LATENCY");
    }

    @Test
    void fanOutStaysWithinMaxParallel() throws Exception {
        ClusterSpec spec = PairFixtures.spec(16, 2, false);
        StubLauncher stub = new StubLauncher(spec, (net, c, s, kind, call) -> 9.4);
        ValidationReport r = validation(spec, stub, RunRecorder.none(), ValidateSettings.of(false, 4, Duration.ofSeconds(30))).run(List.of());
        assertThat(r.pairs()).hasSize(2 * 120);
        assertThat(stub.maxConcurrent.get()).isBetween(1, 4);
    }

    @Test
    void rdmaPairsAreJudgedAgainstTheRateAndASlowRailIsNamed() throws Exception {
        ClusterSpec spec = PairFixtures.spec(5, 2, true);
        StubLauncher stub = new StubLauncher(spec, (net, c, s, kind, call) -> switch (kind) {
            case "rdma-bw" -> net.equals("rail1") ? 20.0 : 38.0;
            case "rdma-lat" -> 1.2;
            default -> 30.0;
        });
        ValidationReport r = validation(spec, stub, RunRecorder.none(), QUICK).run(List.of());
        // --quick: one RDMA bandwidth test per pair; rail1 is slow everywhere, so one round (2 pairs) of retests confirms it
        assertThat(r.pairs()).hasSize(2 * 10 + 2);
        assertThat(r.culprits()).singleElement().satisfies(c -> {
            assertThat(c.kind()).isEqualTo(CulpritKind.RAIL);
            assertThat(c.network()).isEqualTo("rail1");
        });
    }
}
