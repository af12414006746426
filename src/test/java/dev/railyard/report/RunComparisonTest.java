package dev.railyard.report;

import dev.railyard.model.Measurement;
import dev.railyard.model.SizeCurve;
import dev.railyard.model.ValidationReport;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** compare on the numbers of single-node runs, and the noise band taken from repeated runs. */
class RunComparisonTest {

    private static ValidationReport oneNode(String id, double loopback, double busbw) {
        SizeCurve nccl = new SizeCurve("NCCL all_reduce busbw", "all_reduce over 1 GPUs on 1 node", "GB/s",
                List.of(new SizeCurve.Point(1 << 20, busbw / 2), new SizeCurve.Point(128L << 20, busbw)));
        return new ValidationReport(ValidationReport.SCHEMA_VERSION, id, "vm", "local", Instant.EPOCH,
                Optional.of(Instant.EPOCH.plusSeconds(2)), true, 0, List.of(), List.of(), List.of(), List.of(), List.of(),
                List.of(), List.of(nccl), List.of(new Measurement("loopback TCP", "vm 127.0.0.1", loopback, "Gb/s"),
                new Measurement("NCCL all_reduce busbw at 128 MiB", "all_reduce over 1 GPUs on 1 node", busbw, "GB/s")));
    }

    @Test
    void twoSingleNodeRunsShowTheChangeInPercentForEachBenchmark() {
        RunComparison c = RunComparison.of(oneNode("a", 10.9, 100), oneNode("b", 19.9, 97), List.of());
        assertThat(c.rows()).extracting(RunComparison.Row::benchmark).containsExactly(
                "loopback TCP", "NCCL all_reduce busbw at 128 MiB", "NCCL all_reduce busbw at 1 MiB");
        assertThat(c.rows().getFirst().changePercent()).hasValueSatisfying(v -> assertThat(v).isCloseTo(82.57, org.assertj.core.data.Offset.offset(0.01)));
        assertThat(c.text()).contains("loopback TCP").contains("10.9 Gb/s").contains("19.9 Gb/s").contains("+82.6 %")
                .contains("-3.0 %").contains("within noise");
    }

    /** Three earlier runs 90, 100, 110: a spread of 10 %, so a band of 20 %, and a drop of 15 % is noise. */
    @Test
    void theNoiseBandComesFromTheSpreadOfRepeatedRuns() {
        List<ValidationReport> repeats = List.of(oneNode("r1", 9, 90), oneNode("r2", 10, 100), oneNode("r3", 11, 110));
        RunComparison c = RunComparison.of(oneNode("a", 10, 100), oneNode("b", 8.5, 85), repeats);
        RunComparison.Row loop = c.rows().stream().filter(r -> r.benchmark().equals("loopback TCP")).findFirst().orElseThrow();
        assertThat(loop.noisePercent()).isCloseTo(20.0, org.assertj.core.data.Offset.offset(0.01));
        assertThat(loop.judgement()).isEqualTo("within noise");
        // the same drop without repeated runs is beyond the default 5 %
        assertThat(RunComparison.of(oneNode("a", 10, 100), oneNode("b", 8.5, 85), List.of()).rows().getFirst().judgement())
                .isEqualTo("worse");
        assertThat(c.text()).contains("Noise band: twice the spread of each number over 3 earlier runs of vm");
        assertThat(RunComparison.band(new double[]{100, 100, 100})).isEqualTo(RunComparison.MIN_BAND);
    }
}
