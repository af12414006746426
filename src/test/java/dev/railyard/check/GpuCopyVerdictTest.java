package dev.railyard.check;

import dev.railyard.model.GpuCopyResult;
import dev.railyard.bench.gpu.PcieBandwidth;

import dev.railyard.model.Finding;
import dev.railyard.model.Severity;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class GpuCopyVerdictTest {

    private static GpuCopyResult gpu(double h2d, double d2h, Optional<Integer> gen) {
        return new GpuCopyResult(0, "0000:18:00.0", h2d, d2h, 3000, gen.map(g -> "Gen" + g + " x16"),
                gen.map(g -> PcieBandwidth.theoreticalGBps(g, 16)));
    }

    private static Finding judge(GpuCopyResult g) {
        return GpuCopyVerdict.judge(new GpuCopyResult.Run(1 << 28, 20, List.of(g), new double[1][1], new boolean[1][1]))
                .getFirst();
    }

    @Test
    void gen5x16AllowsAbout63GBps() {
        assertThat(PcieBandwidth.theoreticalGBps(5, 16)).isCloseTo(63.0, within(0.01));
        assertThat(PcieBandwidth.theoreticalGBps(3, 16)).isCloseTo(15.76, within(0.01));
    }

    @Test
    void aGen5GpuCopyingAtGen3SpeedTrainedDown() {
        Finding f = judge(gpu(12.5, 13.1, Optional.of(5)));
        assertThat(f.severity()).isEqualTo(Severity.FAIL);
        assertThat(f.remediation()).contains("reseat");
        assertThat(f.expected()).contains("Gen5 x16");
    }

    @Test
    void aHealthyGen5LinkPasses() {
        assertThat(judge(gpu(55.2, 54.8, Optional.of(5))).severity()).isEqualTo(Severity.PASS);
    }

    @Test
    void anUnknownSlotCannotBeJudged() {
        assertThat(judge(gpu(55.2, 54.8, Optional.empty())).severity()).isEqualTo(Severity.UNKNOWN);
    }
}
