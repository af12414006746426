package dev.railyard.nativelib;

import dev.railyard.model.Gpu;
import dev.railyard.model.Gpu.ClockEvent;
import dev.railyard.model.Gpu.EccCounts;
import dev.railyard.model.Gpu.Memory;
import dev.railyard.model.Gpu.NvLink;
import dev.railyard.model.Gpu.RemappedRows;
import dev.railyard.model.GpuInventory.NvmlSystem;
import dev.railyard.model.PcieLink;
import dev.railyard.model.Reading;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * FfmNvml against src/test/c/fake_nvml.c, whose two GPUs' values are stated in that file, each function called
 * through NvmlFunctions' one register shape (as on x86-64 and AArch64).
 */
class FfmNvmlTest {

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

    @AfterEach
    void resetFake() throws Throwable {
        fake.setInitResult(0);
        fake.setLostGpu(false);
    }

    /** This class calls every function through the one register shape; its subclass with exact descriptors. */
    boolean exactDescriptors() {
        return false;
    }

    private FfmNvml open() {
        NvmlLoad load = FfmNvml.open(fake.path(), exactDescriptors());
        assertThat(load).isInstanceOf(NvmlLoad.Ready.class);
        return ((NvmlLoad.Ready) load).nvml();
    }

    @Test
    void readsDriverCudaAndNvmlVersions() {
        try (FfmNvml nvml = open()) {
            assertThat(nvml.system()).isEqualTo(Reading.of(new NvmlSystem("550.90.07", "12.4", "12.550.90.07")));
        }
    }

    @Test
    void readsEveryFieldOfAFullySupportedGpu() {
        try (FfmNvml nvml = open()) {
            List<Gpu> gpus = nvml.gpus().optional().orElseThrow();
            assertThat(gpus).hasSize(2);
            Gpu g = gpus.get(0);
            assertThat(g.index()).isZero();
            assertThat(g.pciAddress()).isEqualTo("0000:1b:00.0");
            assertThat(g.source()).isEqualTo(Gpu.Source.NVML);
            assertThat(g.name()).isEqualTo(Reading.of("NVIDIA H100 80GB HBM3"));
            assertThat(g.uuid()).isEqualTo(Reading.of("GPU-6b5f8a8e-0d9c-4f3e-9a52-1c2d3e4f5a6b"));
            // nvidia-smi's count: used without the driver's reserved memory, which _v2 reports apart
            assertThat(g.memory()).isEqualTo(Reading.of(new Memory(85520809984L, 557056000L, Reading.of(536870912L))));
            assertThat(g.temperatureC()).isEqualTo(Reading.of(34));
            assertThat(g.slowdownTemperatureC()).isEqualTo(Reading.of(87));
            assertThat(g.powerWatts()).isEqualTo(Reading.of(71.234));
            assertThat(g.powerLimitWatts()).isEqualTo(Reading.of(700.0));
            assertThat(g.smClockMhz()).isEqualTo(Reading.of(1980));
            assertThat(g.clockEvents()).isEqualTo(Reading.of(List.of(ClockEvent.GPU_IDLE, ClockEvent.SW_POWER_CAP)));
            assertThat(g.ecc()).isEqualTo(Reading.of(new EccCounts(0, 0, 0, 0)));
            assertThat(g.remappedRows()).isEqualTo(Reading.of(new RemappedRows(0, 0, false, false)));
            assertThat(g.pcieLink()).isEqualTo(Reading.of(new PcieLink(5, 5, 16, 16)));
            assertThat(g.nvlinks()).isEqualTo(Reading.of(
                    IntStream.range(0, 18).mapToObj(l -> new NvLink(l, l != 3)).toList()));
            assertThat(g.persistenceMode()).isEqualTo(Reading.of(true));
            assertThat(g.pcieReplays()).isEqualTo(Reading.of(7L));
            assertThat(g.nvlinkErrors()).isEqualTo(Reading.of(IntStream.range(0, 18)
                    .mapToObj(l -> new Gpu.NvLinkErrors(l, l * 10L, l * 10L + 1, l * 10L + 2, l * 10L + 3)).toList()));
        }
    }

    @Test
    void readsUtilisationClocksEnergyAndTrafficRatesBetweenTwoReads() throws Throwable {
        try (FfmNvml nvml = open()) {
            Gpu.Activity first = nvml.gpus().optional().orElseThrow().get(0).activity();
            assertThat(first.gpuUtilPercent()).isEqualTo(Reading.of(87));
            assertThat(first.memoryCopyUtilPercent()).isEqualTo(Reading.of(41));
            assertThat(first.encoderUtilPercent()).isEqualTo(Reading.of(0));
            assertThat(first.decoderUtilPercent()).isEqualTo(Reading.of(0));
            assertThat(first.memoryClockMhz()).isEqualTo(Reading.of(2619));
            assertThat(first.memoryTemperatureC()).isEqualTo(Reading.of(41));
            long energy = first.energyMillijoules().optional().orElseThrow();
            long nvlink = first.nvlinkDataKib().optional().orElseThrow();
            assertThat(first.pcieTxBytesPerSecond()).isEqualTo(Reading.absent("a rate needs two readings; this was the first"));
            Gpu.Activity still = nvml.gpus().optional().orElseThrow().get(0).activity();
            assertThat(still.pcieTxBytesPerSecond()).isEqualTo(Reading.absent("NVML gave the same timestamp twice"));
            // two seconds of the fake's traffic: 2 GB/s TX, 1 GB/s RX on PCIe; 700 J/s; 4 GiB/s of NVLink data
            fake.advanceSeconds(2);
            Gpu.Activity second = nvml.gpus().optional().orElseThrow().get(0).activity();
            assertThat(second.pcieTxBytesPerSecond()).isEqualTo(Reading.of(2e9));
            assertThat(second.pcieRxBytesPerSecond()).isEqualTo(Reading.of(1e9));
            assertThat(second.energyMillijoules()).isEqualTo(Reading.of(energy + 1_400_000L));
            assertThat(second.nvlinkDataKib()).isEqualTo(Reading.of(nvlink + 8_000_000L));
        }
    }

    @Test
    void gpmRatiosBetweenTwoReadsOnAGpuThatHasGpmAndTheReasonOnOneThatHasNot() throws Throwable {
        int before = fake.gpmSamplesLive();
        try (FfmNvml nvml = open()) {
            List<Gpu> first = nvml.gpus().optional().orElseThrow();
            assertThat(first.get(0).activity().profile()).isEqualTo(Reading.absent(
                    "the first GPM sample of this GPU was taken now; ratios come from the next sample on"));
            assertThat(first.get(1).activity().profile()).isEqualTo(Reading.absent("this GPU has no GPM (Hopper and later have it)"));
            // two buffers for the GPU with GPM, allocated once and kept for the session
            assertThat(fake.gpmSamplesLive() - before).isEqualTo(2);
            for (int read = 0; read < 3; read++) {
                List<Gpu> next = nvml.gpus().optional().orElseThrow();
                // NVML's percent as DCGM's ratios; the fake refuses samples given out of order or of another GPU
                assertThat(next.get(0).activity().profile()).isEqualTo(Reading.of(new Gpu.Profile(Reading.of(0.875),
                        Reading.of(0.8), Reading.of(0.4), Reading.of(0.625), Reading.of(0.55), Reading.of(0.0),
                        Reading.of(0.125), Reading.of(0.25))));
                assertThat(next.get(1).activity().profile()).isEqualTo(Reading.absent("this GPU has no GPM (Hopper and later have it)"));
            }
            assertThat(fake.gpmSamplesLive() - before).isEqualTo(2);
        }
    }

    @Test
    void unsupportedFieldsAreAbsentAndErrorsCarryNvmlsText() {
        try (FfmNvml nvml = open()) {
            Gpu g = nvml.gpus().optional().orElseThrow().get(1);
            assertThat(g.pciAddress()).isEqualTo("0000:9a:00.0");
            assertThat(g.name()).isEqualTo(Reading.of("NVIDIA L40S"));
            assertThat(g.memory()).isEqualTo(Reading.of(new Memory(48305799168L, 1234567168L, Reading.of(402653184L))));
            assertThat(g.activity().memoryTemperatureC()).isEqualTo(Reading.absent("not supported by this GPU"));
            assertThat(g.activity().nvlinkDataKib()).isEqualTo(Reading.absent("not supported by this GPU"));
            assertThat(g.activity().encoderUtilPercent()).isEqualTo(Reading.of(12));
            assertThat(g.slowdownTemperatureC()).isEqualTo(Reading.absent("not supported by this GPU"));
            assertThat(g.powerWatts()).isEqualTo(Reading.absent("not supported by this GPU"));
            assertThat(g.powerLimitWatts()).isEqualTo(Reading.of(350.0));
            assertThat(g.clockEvents()).isEqualTo(Reading.of(List.of(ClockEvent.HW_THERMAL_SLOWDOWN)));
            assertThat(g.ecc()).isEqualTo(Reading.of(new EccCounts(5, 2, 17, 3)));
            assertThat(g.remappedRows()).isEqualTo(Reading.of(new RemappedRows(1, 2, true, true)));
            assertThat(g.pcieLink()).isEqualTo(Reading.of(new PcieLink(4, 5, 8, 16)));
            assertThat(g.pcieLink().optional().orElseThrow().degraded()).isTrue();
            assertThat(g.nvlinks()).isEqualTo(Reading.of(List.of()));
            assertThat(g.pcieReplays()).isEqualTo(Reading.absent("not supported by this GPU"));
            assertThat(g.nvlinkErrors()).isEqualTo(Reading.of(List.of()));
            assertThat(g.persistenceMode())
                    .isEqualTo(Reading.failed("nvmlDeviceGetPersistenceMode", "Insufficient Permissions"));
        }
    }

    @Test
    void aGpuWhoseHandleIsLostIsListedWithTheReason() throws Throwable {
        fake.setLostGpu(true);
        try (FfmNvml nvml = open()) {
            List<Gpu> gpus = nvml.gpus().optional().orElseThrow();
            assertThat(gpus).hasSize(3);
            Gpu lost = gpus.get(2);
            assertThat(lost.index()).isEqualTo(2);
            assertThat(lost.pciAddress()).isEqualTo("unknown");
            assertThat(lost.name()).isEqualTo(Reading.failed("nvmlDeviceGetHandleByIndex_v2", "GPU is lost"));
            assertThat(lost.ecc()).isEqualTo(Reading.failed("nvmlDeviceGetHandleByIndex_v2", "GPU is lost"));
            assertThat(gpus.get(1).name()).isEqualTo(Reading.of("NVIDIA L40S"));
        }
    }

    @Test
    void initFailureIsUnavailableWithNvmlsText() throws Throwable {
        fake.setInitResult(9); // NVML_ERROR_DRIVER_NOT_LOADED
        assertThat(FfmNvml.open(fake.path(), exactDescriptors()))
                .isEqualTo(new NvmlLoad.Unavailable("nvmlInit_v2 failed: Driver Not Loaded"));
        assertThat(fake.refcount()).isZero();
    }

    @Test
    void closeShutsNvmlDown() throws Throwable {
        FfmNvml nvml = open();
        assertThat(fake.refcount()).isEqualTo(1);
        nvml.close();
        nvml.close();
        assertThat(fake.refcount()).isZero();
    }

    @Test
    void aMissingLibraryIsUnavailableNotACrash() {
        Path missing = dir.resolve("nowhere/libnvidia-ml.so.1");
        assertThat(Files.exists(missing)).isFalse();
        NvmlLoad load = FfmNvml.open(missing);
        assertThat(load).isInstanceOfSatisfying(NvmlLoad.Unavailable.class,
                u -> assertThat(u.reason()).startsWith("cannot load " + missing));
    }

    @Test
    void anOldDriverFallsBackToTheOlderCallsAndLacksOnlyWhatItLacks(@TempDir Path oldDir) throws Exception {
        try (FakeNvmlLibrary old = FakeNvmlLibrary.build(oldDir, "FAKE_NVML_OLD_DRIVER")) {
            NvmlLoad load = FfmNvml.open(old.path(), exactDescriptors());
            try (FfmNvml nvml = ((NvmlLoad.Ready) load).nvml()) {
                assertThat(nvml.system()).isEqualTo(Reading.of(new NvmlSystem("550.90.07", "11.8", "12.550.90.07")));
                Gpu g = nvml.gpus().optional().orElseThrow().get(0);
                assertThat(g.clockEvents()).isEqualTo(Reading.of(List.of(ClockEvent.HW_SLOWDOWN)));
                assertThat(g.remappedRows())
                        .isEqualTo(Reading.absent("nvmlDeviceGetRemappedRows is not in this driver's NVML"));
                assertThat(g.ecc()).isEqualTo(Reading.of(new EccCounts(0, 0, 0, 0)));
                assertThat(g.name()).isEqualTo(Reading.of("NVIDIA H100 80GB HBM3"));
                // no _v2: the first call's used, which counts the reserved memory in, and no reserved reading
                assertThat(g.memory()).isEqualTo(Reading.of(new Memory(85520809984L, 557056000L + 536870912L)));
                assertThat(g.activity().profile())
                        .isEqualTo(Reading.absent("this driver's NVML has no GPM (nvmlGpmMetricsGet: R520 and later)"));
            }
        }
    }

    @Test
    void structLayoutsMatchNvmlH() {
        assertThat(NvmlLayouts.PCI_INFO.byteSize()).isEqualTo(68);
        assertThat(NvmlLayouts.PCI_BUS_ID_OFFSET).isEqualTo(36);
        assertThat(NvmlLayouts.MEMORY.byteSize()).isEqualTo(24);
        assertThat(NvmlLayouts.MEMORY_USED_OFFSET).isEqualTo(16);
        assertThat(NvmlLayouts.MEMORY_V2.byteSize()).isEqualTo(40);
        assertThat(NvmlLayouts.MEMORY_V2_VERSION).isEqualTo(0x02000028);
        assertThat(NvmlLayouts.MEMORY_V2_RESERVED_OFFSET).isEqualTo(16);
        assertThat(NvmlLayouts.FIELD_VALUE.byteSize()).isEqualTo(40);
        assertThat(NvmlLayouts.FIELD_RETURN_OFFSET).isEqualTo(28);
        assertThat(NvmlLayouts.FIELD_VALUE_OFFSET).isEqualTo(32);
    }

    @Test
    void busIdsAreNormalisedToTheSysfsForm() {
        assertThat(NvmlDeviceReader.normaliseBusId("00000000:17:00.0")).isEqualTo("0000:17:00.0");
        assertThat(NvmlDeviceReader.normaliseBusId("00000000:9A:00.0")).isEqualTo("0000:9a:00.0");
        assertThat(NvmlDeviceReader.normaliseBusId("0000:C1:00.0")).isEqualTo("0000:c1:00.0");
        assertThat(NvmlDeviceReader.normaliseBusId("00010002:01:00.0")).isEqualTo("00010002:01:00.0");
        assertThat(NvmlDeviceReader.normaliseBusId("garbage")).isEqualTo("garbage");
    }
}
