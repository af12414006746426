package dev.railyard.cluster;

import dev.railyard.model.CheckId;
import dev.railyard.model.ClusterSpec;
import dev.railyard.model.Finding;
import dev.railyard.model.Severity;
import dev.railyard.model.ValidationReport;
import dev.railyard.platform.Clock;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** validate --burn through the whole orchestration against the stub launcher: nodes burn first, then the fabric. */
class BurnStageTest {

    private static final ValidateSettings QUICK = ValidateSettings.of(false, 64, Duration.ofSeconds(30));

    private static String finding(String id, Severity severity, String subject, String observed) {
        return "{\"id\": \"" + id + "\", \"severity\": \"" + severity + "\", \"subject\": \"" + subject
                + "\", \"observed\": \"" + observed + "\", \"expected\": \"no throttle\", \"remediation\": \"\"}";
    }

    private static StepResult exited(String node, List<String> args, int code, String stdout, String stderr) {
        return new StepResult(node, args, StepStatus.EXITED, code, stdout, stderr, Duration.ofSeconds(600), "");
    }

    @Test
    void everyNodeWithGpusBurnsBeforeAnyPairAndItsVerdictsKeepTheNode() throws Exception {
        ClusterSpec spec = PairFixtures.spec(3, 1, false);
        StubLauncher stub = new StubLauncher(spec, (net, c, s, kind, call) -> 9.4);
        stub.gpusPerNode = 2;
        String throttle = CheckId.GPU_THROTTLE.id();
        stub.burn = (node, args) -> switch (node) {
            case "n001" -> exited(node, args, 0, "{\"findings\": [" + finding(throttle, Severity.PASS, "GPU0", "none seen")
                    + "]}", "");
            case "n002" -> exited(node, args, 1, "{\"findings\": [" + finding(throttle, Severity.FAIL, "GPU1",
                    "HW slowdown seen at 312 s") + "]}", "");
            default -> exited(node, args, 2, "", "Unmatched argument at index 0: 'burn'");
        };
        ValidationReport r = new ClusterValidation(spec, Optional.of("c3BlYw"), stub, QUICK,
                new Endurance(Optional.of(Duration.ofMinutes(10)), Optional.empty()), RunRecorder.none(), Progress.none(),
                Clock.system(), "run-burn").run(List.of());

        assertThat(stub.order).filteredOn(s -> s.contains(" burn ")).containsExactlyInAnyOrder(
                "n001 burn --duration 600s", "n002 burn --duration 600s", "n003 burn --duration 600s");
        int lastBurn = 0;
        int firstPair = Integer.MAX_VALUE;
        for (int i = 0; i < stub.order.size(); i++) {
            if (stub.order.get(i).contains(" burn ")) lastBurn = i;
            if (stub.order.get(i).contains(" client")) firstPair = Math.min(firstPair, i);
        }
        assertThat(lastBurn).as("every burn before the first pair test").isLessThan(firstPair);
        assertThat(r.benchFindings()).extracting(f -> f.severity() + " " + f.id().equals(throttle) + " " + f.subject())
                .contains("PASS true n001 GPU0", "FAIL true n002 GPU1");
        Finding none = r.benchFindings().stream().filter(f -> f.id().equals(CheckId.VALIDATE_BURN.id())).findFirst()
                .orElseThrow();
        assertThat(none.severity()).isEqualTo(Severity.UNKNOWN);
        assertThat(none.subject()).isEqualTo("n003");
        assertThat(none.observed()).contains("has no burn command", "'burn'");
        assertThat(none.remediation()).contains("railyard burn --duration 600s");
        assertThat(r.severity()).isEqualTo(Severity.FAIL);
    }

    @Test
    void aBurnThatTimesOutFailsAndNodesWithoutGpusAreSkipped() {
        StepResult killed = new StepResult("n1", BurnStage.args(Duration.ofMinutes(1)), StepStatus.TIMED_OUT, -1, "", "",
                Duration.ofMinutes(6), "killed with its process tree after the step timeout of 360 s");
        assertThat(BurnStage.findings("n1", Duration.ofMinutes(1), killed)).singleElement().satisfies(f -> {
            assertThat(f.severity()).isEqualTo(Severity.FAIL);
            assertThat(f.observed()).isEqualTo("burn timed_out: killed with its process tree after the step timeout of 360 s");
        });
        StepResult silent = new StepResult("n1", List.of(), StepStatus.EXITED, 0, "{\"findings\": []}", "", Duration.ZERO, "");
        assertThat(BurnStage.findings("n1", Duration.ofMinutes(1), silent)).singleElement()
                .satisfies(f -> assertThat(f.severity() + " " + f.observed()).isEqualTo("UNKNOWN burn gave no findings"));
    }
}
