package dev.railyard.nativelib;

import dev.railyard.model.Gpu;
import dev.railyard.model.GpuInventory.NvmlSystem;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The driver's real libnvidia-ml.so.1. Excluded by surefire by default; run on the GPU machine with -Dgroups=gpu. */
@Tag("gpu")
class FfmNvmlRealGpuTest {

    @Test
    void readsSaneValuesFromTheRealDriver() {
        NvmlLoad load = FfmNvml.open();
        assertThat(load).as("NVML must load on a GPU machine: %s", load).isInstanceOf(NvmlLoad.Ready.class);
        try (FfmNvml nvml = ((NvmlLoad.Ready) load).nvml()) {
            NvmlSystem system = nvml.system().optional().orElseThrow();
            assertThat(system.driverVersion()).matches("\\d+\\.\\d+(\\.\\d+)?");
            assertThat(system.cudaVersion()).matches("\\d+\\.\\d+");
            List<Gpu> gpus = nvml.gpus().optional().orElseThrow();
            assertThat(gpus).isNotEmpty();
            for (Gpu g : gpus) {
                System.out.println(g);
                assertThat(g.name().optional().orElseThrow()).startsWith("NVIDIA");
                assertThat(g.uuid().optional().orElseThrow()).startsWith("GPU-");
                assertThat(g.pciAddress()).matches("[0-9a-f]{4,8}:[0-9a-f]{2}:[0-9a-f]{2}\\.[0-7]");
                Gpu.Memory m = g.memory().optional().orElseThrow();
                assertThat(m.totalBytes()).isGreaterThan(1L << 30);
                assertThat(m.usedBytes()).isBetween(0L, m.totalBytes());
                assertThat(g.temperatureC().optional().orElseThrow()).isBetween(5, 110);
                assertThat(g.pcieLink().optional().orElseThrow().maxWidth()).isBetween(1, 32);
                assertThat(g.smClockMhz().optional().orElseThrow()).isBetween(1, 5000);
            }
        }
    }
}
