package dev.railyard.report;

import dev.railyard.model.Finding;
import dev.railyard.model.Measurement;
import dev.railyard.model.PairKind;
import dev.railyard.model.PairOutcome;
import dev.railyard.model.PairResult;
import dev.railyard.model.PairTest;
import dev.railyard.model.Severity;
import dev.railyard.model.ValidationReport;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class MeasurementSummaryTest {

    private static ValidationReport report(List<PairResult> pairs, List<Finding> pairFindings, List<Finding> bench,
                                           List<Measurement> measured) {
        return new ValidationReport(ValidationReport.SCHEMA_VERSION, "r", "c", "ssh", Instant.EPOCH,
                Optional.of(Instant.EPOCH.plusSeconds(3)), true, 1, List.of(), List.of(), pairs, pairFindings,
                List.of(), bench, List.of(), measured);
    }

    private static PairResult pair(String a, String b, int attempt, double gbps) {
        return new PairResult(new PairTest("rail0", a, b, "10.0.0.9", PairKind.RDMA_BANDWIDTH), 1, attempt,
                new PairOutcome.Measured(gbps), Instant.EPOCH, Duration.ofSeconds(1));
    }

    @Test
    void oneNumberIsShownAsItIsAndManyAsTheirSpread() {
        List<MeasurementSummary.Line> lines = MeasurementSummary.of(report(List.of(), List.of(), List.of(), List.of(
                new Measurement("loopback TCP", "vm 127.0.0.1", 19.46, "Gb/s"),
                new Measurement("GPU copy host->device", "n1 GPU0", 24.6, "GB/s"),
                new Measurement("GPU copy host->device", "n1 GPU1", 12.3, "GB/s"),
                new Measurement("GPU copy host->device", "n2 GPU0", 25.0, "GB/s"))));
        assertThat(lines).containsExactly(
                new MeasurementSummary.Line("loopback TCP", "vm 127.0.0.1", "19.5 Gb/s", true),
                new MeasurementSummary.Line("GPU copy host->device", "3 measured",
                        "median 24.6 GB/s, lowest 12.3 (n1 GPU1), highest 25.0 (n2 GPU0)", true));
    }

    /** A retest is the same pair again: the pair counts once, with its last number. */
    @Test
    void pairsCountOncePerPairWithTheirWorstAndHowManyFellShort() {
        Finding bad = Finding.of("bench.rdma.bw", Severity.FAIL, "rail0 a<->c", "9.1 Gb/s", ">= 36 Gb/s", "");
        List<MeasurementSummary.Line> lines = MeasurementSummary.of(report(List.of(pair("a", "b", 1, 38), pair("a", "c", 1, 9.0),
                pair("a", "c", 2, 9.1), pair("b", "c", 1, 37)), List.of(bad), List.of(), List.of()));
        assertThat(lines).containsExactly(new MeasurementSummary.Line("pairs rdma bandwidth", "rail0, 3 pairs",
                "median 37.0 Gb/s, worst 9.10 (a<->c); 1 below expect", true));
    }

    @Test
    void aSkippedBenchmarkIsNotANumber() {
        Finding skipped = Finding.of("bench.nccl.busbw", Severity.INFO, "vm", "no NVIDIA driver/GPU: NCCL all_reduce skipped (x)",
                "GPUs to benchmark", "");
        Finding pass = Finding.pass("bench.tcp.loopback", "vm 127.0.0.1", "19.5 Gb/s in 1 s over loopback", "a path");
        assertThat(MeasurementSummary.of(report(List.of(), List.of(), List.of(pass, skipped), List.of())))
                .containsExactly(new MeasurementSummary.Line("NCCL all_reduce busbw", "vm",
                        "not measured: no NVIDIA driver/GPU: NCCL all_reduce skipped (x)", false));
    }
}
