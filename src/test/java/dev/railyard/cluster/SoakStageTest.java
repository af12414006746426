package dev.railyard.cluster;

import dev.railyard.model.CheckId;
import dev.railyard.model.ClusterSpec;
import dev.railyard.model.Finding;
import dev.railyard.model.Measurement;
import dev.railyard.model.Severity;
import dev.railyard.model.ValidationReport;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * validate --soak through the whole orchestration against the stub launcher. The clock is moved by the pair tests
 * themselves (a minute per client call), so the window ends on what ran, never on the wall clock.
 */
class SoakStageTest {

    /** A clock only the test moves. */
    static final class MovedClock implements dev.railyard.platform.Clock {
        private java.time.Instant now = PairFixtures.T0;
        private long nanos;

        @Override
        public synchronized java.time.Instant now() {
            return now;
        }

        @Override
        public synchronized long nanoTime() {
            return nanos;
        }

        synchronized void advance(Duration d) {
            now = now.plus(d);
            nanos += d.toNanos();
        }
    }

    private static final ValidateSettings QUICK = ValidateSettings.of(false, 64, Duration.ofSeconds(30));

    private static String port(long symbolErrors, long linkDowned) {
        return "{\"device\": \"mlx5_0\", \"port\": 1, \"counters\": {\"symbol_error\": " + symbolErrors
                + ", \"link_downed\": " + linkDowned + ", \"port_rcv_errors\": 0}}";
    }

    private static List<String> lines(ValidationReport r, String id) {
        return r.benchFindings().stream().filter(f -> f.id().equals(id))
                .map(f -> f.severity() + " " + f.subject() + ": " + f.observed()).toList();
    }

    @Test
    void pairsRepeatUntilTheWindowPassedAndAGrowingCounterIsNamedWithItsDeltaWhileBandwidthIsFine() throws Exception {
        ClusterSpec spec = PairFixtures.spec(3, 1, false);
        MovedClock clock = new MovedClock();
        StubLauncher stub = new StubLauncher(spec, (net, c, s, kind, call) -> {
            clock.advance(Duration.ofMinutes(1));
            return 9.4;
        });
        // n002's port takes 12 symbol errors between the node stage's inventory and the one after the soak
        stub.ports = (node, call) -> port(node.equals("n002") && call > 1 ? 15 : node.equals("n002") ? 3 : 0, 1);
        ClusterValidation v = new ClusterValidation(spec, Optional.of("c3BlYw"), stub, QUICK,
                new Endurance(Optional.empty(), Optional.of(Duration.ofMinutes(5))), RunRecorder.none(), Progress.none(),
                clock, "run-soak");
        ValidationReport r = v.run(List.of("railyard", "validate", "--soak", "5m"));

        // 3 pairs a repetition, a minute each: repetition 1 ends at 3 min, repetition 2 at 6 min, past the window
        assertThat(stub.clientCalls()).isEqualTo(3 + 2 * 3);
        assertThat(lines(r, CheckId.SOAK_BUSBW.id())).hasSize(3).allSatisfy(l -> assertThat(l)
                .startsWith("PASS rail0 ").contains("2 of 2 repetitions: min 9.40, median 9.40, max 9.40 Gb/s"));
        assertThat(lines(r, CheckId.SOAK_COUNTERS.id())).containsExactlyInAnyOrder(
                "PASS n001: 3 error counters on 1 port unchanged during the 5m soak",
                "FAIL n002 mlx5_0:1 symbol_error: +12 during the 5m soak (3 -> 15)",
                "PASS n003: 3 error counters on 1 port unchanged during the 5m soak");
        Finding grew = r.benchFindings().stream().filter(f -> f.severity() == Severity.FAIL).findFirst().orElseThrow();
        assertThat(grew.remediation()).contains("grep . /sys/class/infiniband/mlx5_0/ports/1/counters/*",
                "mlxlink -d mlx5_0 -p 1 -c");
        // the soak's repetitions are not the report's pairs: those stay the one pass of the pair stage
        assertThat(r.pairs()).hasSize(3);
        assertThat(r.measurements()).extracting(Measurement::benchmark)
                .anyMatch(b -> b.startsWith(SoakStage.MIN + "rail0 ")).anyMatch(b -> b.startsWith(SoakStage.MEDIAN + "rail0 "));
        assertThat(r.severity()).isEqualTo(Severity.FAIL);
    }

    @Test
    void aPairThatSagsInOneRepetitionWarnsOnTheSpreadAndOneWithoutAResultFails() throws Exception {
        ClusterSpec spec = PairFixtures.spec(2, 1, false);
        MovedClock clock = new MovedClock();
        StubLauncher stub = new StubLauncher(spec, (net, c, s, kind, call) -> {
            clock.advance(Duration.ofMinutes(1));
            // call 1 is the pair stage; the soak's repetitions are calls 2, 3, then 4 and its retest 5, which fail
            return call == 3 ? 7.0 : call >= 4 ? -1 : 9.4;
        });
        stub.countCalls = true;
        ValidationReport r = new ClusterValidation(spec, Optional.of("c3BlYw"), stub, QUICK,
                new Endurance(Optional.empty(), Optional.of(Duration.ofMinutes(3))), RunRecorder.none(), Progress.none(),
                clock, "run-soak").run(List.of());
        assertThat(lines(r, CheckId.SOAK_BUSBW.id())).satisfiesExactlyInAnyOrder(
                l -> assertThat(l).startsWith("FAIL rail0 n001<->n002 TCP bandwidth: 1 of 3 repetitions gave no result "
                        + "(railyard: cannot connect to 10.0.0.2"),
                l -> assertThat(l).startsWith("WARN rail0 n001<->n002 TCP bandwidth: spread ").contains("min 7.00, median 8.20, max 9.40 Gb/s, spread 29.3 %"));
        // no RDMA port in the stub's inventory: no counter finding, and none PASSes
        assertThat(lines(r, CheckId.SOAK_COUNTERS.id())).isEmpty();
    }

    @Test
    void withoutSoakNoRepetitionRuns() throws Exception {
        ClusterSpec spec = PairFixtures.spec(2, 1, false);
        StubLauncher stub = new StubLauncher(spec, (net, c, s, kind, call) -> 9.4);
        ValidationReport r = new ClusterValidation(spec, Optional.of("c3BlYw"), stub, QUICK, RunRecorder.none(),
                Progress.none(), dev.railyard.platform.Clock.system(), "run-1").run(List.of());
        assertThat(stub.clientCalls()).isEqualTo(1);
        assertThat(r.benchFindings()).noneMatch(f -> f.id().startsWith("soak."));
    }
}
