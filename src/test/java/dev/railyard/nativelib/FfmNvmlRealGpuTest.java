package dev.railyard.nativelib;

import dev.railyard.model.Gpu;
import dev.railyard.model.GpuInventory.NvmlSystem;
import dev.railyard.model.Reading;
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

    /**
     * GPM's ratios on the second read: on a GPU named H100, H200 or later (Hopper has GPM) every ratio lies in 0..1;
     * elsewhere the profile is absent and says why. Each GPU's profile is printed for the record.
     */
    @Test
    void gpmRatiosOnTheSecondReadWhereTheGpuHasGpm() throws InterruptedException {
        NvmlLoad load = FfmNvml.open();
        assertThat(load).isInstanceOf(NvmlLoad.Ready.class);
        try (FfmNvml nvml = ((NvmlLoad.Ready) load).nvml()) {
            nvml.gpus(false);
            Thread.sleep(1000); // GPM's metrics cover the time between two samples: one sampling interval
            for (Gpu g : nvml.gpus(false).optional().orElseThrow()) {
                Reading<Gpu.Profile> profile = g.activity().profile();
                System.out.println(g.index() + " " + g.name().describe() + " " + profile);
                if (g.name().optional().orElse("").matches("NVIDIA (H100|H200|H20|GH200|B100|B200|GB200).*")) {
                    Gpu.Profile p = profile.optional().orElseThrow();
                    for (Reading<Double> r : List.of(p.graphicsActive(), p.smActive(), p.smOccupancy(), p.tensorActive(),
                            p.dramActive())) {
                        assertThat(r.optional().orElseThrow()).isBetween(0.0, 1.0);
                    }
                } else {
                    assertThat(profile).isNotInstanceOf(Reading.Present.class);
                }
            }
        }
    }
}
