package dev.railyard.nativelib;

import dev.railyard.model.Gpu;
import dev.railyard.model.GpuSensors;
import dev.railyard.model.Reading;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The light one-second read against the full read it stands in for, on src/test/c/fake_nvml.c's two GPUs: GPU 0
 * answers every query, GPU 1 answers NOT_SUPPORTED for power and has no memory temperature, so both the values and
 * the reasons must come out the same.
 */
class NvmlSensorsTest {

    @TempDir
    static Path dir;

    static FakeNvmlLibrary fake;

    @BeforeAll
    static void buildFake() throws Exception {
        fake = FakeNvmlLibrary.build(dir);
    }

    @AfterAll
    static void unload() {
        if (fake != null) fake.close();
    }

    private static FfmNvml open() {
        return ((NvmlLoad.Ready) FfmNvml.open(fake.path())).nvml();
    }

    @Test
    void readsWhatTheFullReadReadsForTheSameFields() {
        try (FfmNvml nvml = open()) {
            List<Gpu> full = nvml.gpus(false).optional().orElseThrow();
            // CUDA writes bus IDs in capitals; the GPUs asked for in reverse order come back in that order
            List<GpuSensors> light = nvml.sensors().read(List.of("0000:9A:00.0", "0000:1B:00.0")).optional().orElseThrow();
            assertThat(light).extracting(GpuSensors::pciAddress).containsExactly("0000:9A:00.0", "0000:1B:00.0");
            for (int i = 0; i < 2; i++) {
                Gpu g = full.get(i);
                GpuSensors s = light.get(1 - i);
                assertThat(s.smClockMhz()).isEqualTo(g.smClockMhz());
                assertThat(s.memoryClockMhz()).isEqualTo(g.activity().memoryClockMhz());
                assertThat(s.powerWatts()).isEqualTo(g.powerWatts());
                assertThat(s.temperatureC()).isEqualTo(g.temperatureC());
                assertThat(s.memoryTemperatureC()).isEqualTo(g.activity().memoryTemperatureC());
                assertThat(s.clockEvents()).isEqualTo(g.clockEvents());
            }
            assertThat(light.get(1).powerWatts().isPresent()).isTrue();
            assertThat(light.get(0).powerWatts().isPresent()).as("GPU 1 answers NOT_SUPPORTED for power").isFalse();
            assertThat(light.get(0).memoryTemperatureC().isPresent()).as("GPU 1 has no memory temperature").isFalse();
        }
    }

    @Test
    void aGpuNvmlDoesNotListIsThereWithTheReason() {
        try (FfmNvml nvml = open()) {
            GpuSensors s = nvml.sensors().read(List.of("0000:99:00.0")).optional().orElseThrow().getFirst();
            assertThat(s.powerWatts()).isEqualTo(Reading.absent("NVML lists no GPU at 0000:99:00.0"));
            assertThat(s.clockEvents()).isEqualTo(Reading.absent("NVML lists no GPU at 0000:99:00.0"));
        }
    }

    @Test
    void afterShutdownNothingIsCalled() throws Throwable {
        FfmNvml nvml = open();
        NvmlSensors sensors = nvml.sensors();
        sensors.read(List.of("0000:1b:00.0"));
        nvml.close();
        fake.resetCalls();
        assertThat(sensors.read(List.of("0000:1b:00.0"))).isEqualTo(Reading.absent("NVML was shut down"));
        assertThat(fake.calls()).isZero();
    }
}
