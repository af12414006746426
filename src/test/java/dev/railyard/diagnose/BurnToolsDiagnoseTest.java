package dev.railyard.diagnose;

import dev.railyard.model.CheckId;
import dev.railyard.model.Severity;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * diagnose on real gpu-burn and gpu-fryer output (test resources diagnose/burn, each naming the public thread it was
 * pasted in), judged by burn's rules: burn.speed through the same judge as {@code railyard burn}, burn.checksum from
 * gpu-burn's comparison, burn.errors for a load that died or did no work, burn.throttle from gpu-fryer's flags.
 */
class BurnToolsDiagnoseTest {

    private static String paste(String name) throws IOException {
        try (var in = BurnToolsDiagnoseTest.class.getResourceAsStream("/diagnose/burn/" + name)) {
            String all = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            assertThat(all).as(name).startsWith("# source: https://github.com/");
            return all.substring(all.indexOf('\n') + 1);
        }
    }

    private static DiagnosisReport diagnose(String text) {
        return Diagnoser.standard().diagnose(text);
    }

    private static List<String> verdicts(DiagnosisReport r) {
        return r.diagnoses().stream().map(d -> d.severity() + " " + d.finding().id() + " " + d.subject()).toList();
    }

    private static Diagnosis one(DiagnosisReport r, CheckId id, String subject) {
        return r.diagnoses().stream().filter(d -> d.finding().id().equals(id.id()) && d.subject().equals(subject))
                .findFirst().orElseThrow(() -> new AssertionError("no " + id.id() + " for " + subject + " in " + verdicts(r)));
    }

    @Test
    void gpuBurnsErrorsFailTheGpusThatCountedThemAndFaultyFailsTheRest() throws IOException {
        DiagnosisReport r = diagnose(paste("gpu-burn-16-gpus-faulty-gpuburn12.txt"));
        assertThat(r.tool()).isEqualTo(ToolKind.GPU_BURN);
        assertThat(one(r, CheckId.BURN_CHECKSUM, "GPU1 (1)").cause()).isEqualTo("more result elements differed from "
                + "the GPU's first result than gpu-burn's counter holds (it printed -524288000) (gpu-burn: FAULTY)");
        assertThat(one(r, CheckId.BURN_CHECKSUM, "GPU0 (0)").severity()).isEqualTo(Severity.FAIL);
        assertThat(r.diagnoses()).filteredOn(d -> d.finding().id().equals(CheckId.BURN_CHECKSUM.id())).hasSize(16)
                .allMatch(d -> d.severity() == Severity.FAIL);
        // 6311 to 6660 Gflop/s: within 10 % of the best, every one
        assertThat(r.diagnoses()).filteredOn(d -> d.finding().id().equals(CheckId.BURN_SPEED.id())).hasSize(16)
                .allMatch(d -> d.severity() == Severity.PASS);
        assertThat(one(r, CheckId.BURN_SPEED, "GPU0 (0)").cause()).isEqualTo("FP32 6.3 TFLOP/s (5.2 % below the best, 6.7)");
    }

    @Test
    void gpusThatNeverRanFailThoughGpuBurnSaysOk() throws IOException {
        DiagnosisReport r = diagnose(paste("gpu-burn-8-v100-init-failed-says-ok-gpuburn123.txt"));
        assertThat(r.tool()).isEqualTo(ToolKind.GPU_BURN);
        Diagnosis gpu0 = one(r, CheckId.BURN_ERRORS, "GPU0 (GPU-e9f1360a-e941-dde5-d54a-9ba14c23644a)");
        assertThat(gpu0.severity()).isEqualTo(Severity.FAIL);
        assertThat(gpu0.cause()).isEqualTo("the load failed: Couldn't init a GPU test: Error: CUDA_ERROR_UNKNOWN "
                + "(gpu-burn still says OK)");
        assertThat(r.diagnoses()).filteredOn(d -> d.finding().id().equals(CheckId.BURN_ERRORS.id())).hasSize(8);
        // nothing computed: no speed and no comparison to vouch for
        assertThat(r.diagnoses()).noneMatch(d -> d.severity() == Severity.PASS);
        assertThat(r.worst()).isEqualTo(Severity.FAIL);
    }

    @Test
    void oneHealthyGpuPassesItsComparisonAndHasNoneToBeComparedWith() throws IOException {
        DiagnosisReport r = diagnose(paste("gpu-burn-a500-ok-gpuburn124.txt"));
        assertThat(verdicts(r)).containsExactly(
                "INFO burn.speed GPU0 (GPU-6bd3cf32-0057-0f0b-2eb7-3af5ed6da5f2)",
                "PASS burn.checksum GPU0 (GPU-6bd3cf32-0057-0f0b-2eb7-3af5ed6da5f2)");
        assertThat(r.parsed().numbers()).singleElement().satisfies(m -> assertThat(m.value()).isCloseTo(
                (2047 + 3500 + 3519) / 3.0, org.assertj.core.data.Offset.offset(1e-9)));
    }

    @Test
    void aGpuFivePercentBehindItsTwinPassesAtBurnsTenPercent() throws IOException {
        DiagnosisReport r = diagnose(paste("gpu-burn-2-gtx1080-gpuburn48.txt"));
        Diagnosis slow = one(r, CheckId.BURN_SPEED, "GPU1 (GPU-8f7dc020-3610-dda7-fa8e-15cdf18a45e2)");
        assertThat(slow.severity()).isEqualTo(Severity.PASS);
        assertThat(slow.cause()).isEqualTo("FP32 6.7 TFLOP/s (4.6 % below the best, 7.0)");
        assertThat(r.worst()).isEqualTo(Severity.PASS);
    }

    @Test
    void aGpuFarBehindFailsSpeedInDoubles() throws IOException {
        DiagnosisReport r = diagnose(paste("gpu-burn-k40m-m4000-doubles-gpuburn1.txt"));
        Diagnosis k40 = one(r, CheckId.BURN_SPEED, "GPU0 (GPU-660d987e-5b28-3bf6-2a2d-1d5ecae7f6df)");
        assertThat(k40.severity()).isEqualTo(Severity.FAIL);
        assertThat(k40.cause()).isEqualTo("FP64 0.1 TFLOP/s (82.5 % below the best, 0.4)");
    }

    @Test
    void gpuFryersZeroFlopsFailThoughItSaysAllHealthy() throws IOException {
        DiagnosisReport r = diagnose(paste("gpu-fryer-4-gpus-zero-flops-fryer10.txt"));
        assertThat(r.tool()).isEqualTo(ToolKind.GPU_FRYER);
        assertThat(verdicts(r)).containsExactly("FAIL burn.errors GPU0 (0)", "FAIL burn.errors GPU1 (1)",
                "FAIL burn.errors GPU2 (2)", "FAIL burn.errors GPU3 (3)");
        assertThat(r.diagnoses().getFirst().cause()).isEqualTo("the load failed: no multiply finished (0 Gflop/s)");
    }

    @Test
    void healthyGpuFryerRunsPassThrottleAndHaveNoPeerForSpeed() throws IOException {
        for (String name : List.of("gpu-fryer-t4-healthy-fryer29.txt", "gpu-fryer-readme-gpu7-healthy.txt")) {
            DiagnosisReport r = diagnose(paste(name));
            assertThat(r.tool()).as(name).isEqualTo(ToolKind.GPU_FRYER);
            assertThat(r.diagnoses()).as(name).extracting(d -> d.severity() + " " + d.finding().id())
                    .containsExactly("INFO burn.speed", "PASS burn.throttle");
        }
    }

    /** The T4 run above with a second GPU added that ran slower and hot, as gpu-fryer prints both. */
    @Test
    void aSlowThrottledGpuInGpuFryersSummaryFailsSpeedAndThrottle() throws IOException {
        String t4 = paste("gpu-fryer-t4-healthy-fryer29.txt");
        String twoGpus = t4.replace("All GPUs seem healthy", """
                GPU #1:   3512 Gflops/s (min: 3298.53, max: 4398.05, dev: 301.12)
                         Temperature: 86.10°C (min: 33.00, max: 91.00)
                         Throttling HW: false, Thermal SW: true, Thermal HW: true
                Some GPUs are not healthy. Reasons:
                  - GPU 1 - GPU is not performing as expected. Check the flops values and temperatures""");
        DiagnosisReport r = diagnose(twoGpus);
        assertThat(one(r, CheckId.BURN_SPEED, "GPU1 (1)").cause()).isEqualTo("FP32 3.5 TFLOP/s (21.0 % below the best, 4.4)");
        assertThat(one(r, CheckId.BURN_SPEED, "GPU1 (1)").severity()).isEqualTo(Severity.FAIL);
        assertThat(one(r, CheckId.BURN_THROTTLE, "GPU1 (1)").cause()).isEqualTo("SW_THERMAL_SLOWDOWN, HW_THERMAL_SLOWDOWN under load");
        assertThat(one(r, CheckId.BURN_THROTTLE, "GPU0 (0)").severity()).isEqualTo(Severity.PASS);
        assertThat(one(r, CheckId.BURN_SPEED, "GPU0 (0)").severity()).isEqualTo(Severity.PASS);
    }
}
