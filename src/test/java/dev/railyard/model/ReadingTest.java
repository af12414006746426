package dev.railyard.model;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ReadingTest {

    @Test
    void presentMapsAndDescribesItsValue() {
        Reading<Integer> r = Reading.of(9000);
        assertThat(r.map(m -> m + 1).orElse(0)).isEqualTo(9001);
        assertThat(r.describe()).isEqualTo("9000");
    }

    @Test
    void absentAndFailedKeepTheirReasonThroughMap() {
        Reading<Integer> absent = Reading.absent("no GPU");
        Reading<Integer> failed = Reading.failed("sys/class/net/eth0/mtu", "Invalid argument");
        assertThat(absent.map(x -> x * 2)).isEqualTo(Reading.absent("no GPU"));
        assertThat(failed.map(x -> x * 2).describe()).isEqualTo("failed (sys/class/net/eth0/mtu: Invalid argument)");
        assertThat(absent.isPresent()).isFalse();
        assertThat(absent.orElse(-1)).isEqualTo(-1);
    }

    @Test
    void presentRefusesNull() {
        assertThatThrownBy(() -> Reading.of(null)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void pcieGenerationFromSysfsSpeed() {
        assertThat(PcieLink.generationOf("16.0 GT/s PCIe")).isEqualTo(4);
        assertThat(PcieLink.generationOf("8 GT/s")).isEqualTo(3);
        assertThat(PcieLink.generationOf("2.5 GT/s PCIe")).isEqualTo(1);
        assertThat(PcieLink.generationOf("32.0 GT/s PCIe")).isEqualTo(5);
        assertThat(PcieLink.generationOf("Unknown")).isZero();
    }
}
