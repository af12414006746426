package dev.railyard.collect;

import dev.railyard.model.Gpu;
import dev.railyard.model.GpuInventory;
import dev.railyard.model.GpuInventory.NvmlSystem;
import dev.railyard.model.PciDevice;
import dev.railyard.model.PcieLink;
import dev.railyard.model.Reading;
import dev.railyard.nativelib.FakeNvmlLibrary;
import dev.railyard.nativelib.FfmNvml;
import dev.railyard.platform.HostRoot;
import dev.railyard.platform.Timings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

class GpuCollectorTest {

    @TempDir
    Path dir;

    private static PciDevice nvidiaGpu(String address, PcieLink link) {
        return new PciDevice(address, PciDevice.VENDOR_NVIDIA, 0x2330, 0x030200, Reading.of("nvidia"),
                Reading.of(0), Reading.of(link), List.of("pci0000:00"));
    }

    private static final PciDevice NVSWITCH_BRIDGE = new PciDevice("0000:05:00.0", PciDevice.VENDOR_NVIDIA, 0x22a3,
            0x068000, Reading.of("nvidia"), Reading.of(0), Reading.absent("no link"), List.of());
    private static final PciDevice CX7 = new PciDevice("0000:18:00.0", PciDevice.VENDOR_MELLANOX, 0x1021, 0x020700,
            Reading.of("mlx5_core"), Reading.of(0), Reading.of(new PcieLink(5, 5, 16, 16)), List.of());

    @Test
    void aCapturedTreeListsGpusFromPciWithEveryNvmlReadingAbsent() {
        HostRoot root = HostRoot.at(dir);
        List<PciDevice> pci = List.of(nvidiaGpu("0000:9a:00.0", new PcieLink(4, 5, 16, 16)), CX7, NVSWITCH_BRIDGE,
                nvidiaGpu("0000:1b:00.0", new PcieLink(5, 5, 16, 16)));
        GpuInventory inv = GpuCollector.forRoot(root).collect(root, pci);
        String reason = "NVML unavailable: captured tree " + dir
                + " has no railyard/nvml.json or railyard/nvidia-smi-q.xml (NVML is only asked on the live node)";
        assertThat(inv.nvml()).isEqualTo(Reading.absent(reason));
        assertThat(inv.gpus()).extracting(Gpu::index, Gpu::pciAddress, Gpu::source).containsExactly(
                tuple(0, "0000:1b:00.0", Gpu.Source.PCI_SYSFS),
                tuple(1, "0000:9a:00.0", Gpu.Source.PCI_SYSFS));
        Gpu g = inv.gpus().get(1);
        assertThat(g.pcieLink()).isEqualTo(Reading.of(new PcieLink(4, 5, 16, 16)));
        assertThat(g.name()).isEqualTo(Reading.absent(reason));
        assertThat(g.ecc()).isEqualTo(Reading.absent(reason));
        assertThat(g.nvlinks()).isEqualTo(Reading.absent(reason));
    }

    @Test
    void aHostWithoutTheDriverLibraryFallsBackToPci() {
        Path missing = dir.resolve("libnvidia-ml.so.1");
        GpuInventory inv = GpuCollector.withNvml(() -> FfmNvml.open(missing))
                .collect(HostRoot.at(dir), List.of(nvidiaGpu("0000:17:00.0", new PcieLink(5, 5, 16, 16))));
        assertThat(inv.nvml()).isInstanceOfSatisfying(Reading.Absent.class,
                a -> assertThat(a.reason()).startsWith("NVML unavailable: cannot load " + missing));
        assertThat(inv.gpus()).singleElement().satisfies(g -> {
            assertThat(g.source()).isEqualTo(Gpu.Source.PCI_SYSFS);
            assertThat(g.uuid().describe()).contains("NVML unavailable: cannot load");
        });
    }

    @Test
    void nvmlGpusComeFirstAndAPciGpuNvmlDoesNotListIsStillReported() throws Throwable {
        try (FakeNvmlLibrary fake = FakeNvmlLibrary.build(dir)) {
            List<PciDevice> pci = List.of(nvidiaGpu("0000:1b:00.0", new PcieLink(5, 5, 16, 16)),
                    nvidiaGpu("0000:9a:00.0", new PcieLink(4, 5, 8, 16)),
                    nvidiaGpu("0000:c1:00.0", new PcieLink(1, 5, 16, 16)), CX7);
            GpuInventory inv = GpuCollector.withNvml(() -> FfmNvml.open(fake.path())).collect(HostRoot.at(dir), pci);
            assertThat(inv.nvml()).isEqualTo(Reading.of(new NvmlSystem("550.90.07", "12.4", "12.550.90.07")));
            assertThat(inv.gpus()).extracting(Gpu::pciAddress, Gpu::source).containsExactly(
                    tuple("0000:1b:00.0", Gpu.Source.NVML),
                    tuple("0000:9a:00.0", Gpu.Source.NVML),
                    tuple("0000:c1:00.0", Gpu.Source.PCI_SYSFS));
            Gpu missing = inv.gpus().get(2);
            assertThat(missing.index()).isEqualTo(2);
            assertThat(missing.name()).isEqualTo(Reading.absent(
                    "NVML does not list this GPU (fallen off the bus, or not bound to nvidia)"));
            assertThat(missing.pcieLink()).isEqualTo(Reading.of(new PcieLink(1, 5, 16, 16)));
            assertThat(inv.gpus().get(0).name()).isEqualTo(Reading.of("NVIDIA H100 80GB HBM3"));
            NvmlShutdowns.awaitAll();
            assertThat(fake.refcount()).as("the collector shuts NVML down").isZero();
        }
    }

    @Test
    void loadingNowStartsNvmlBeforeTheCollectionIsAskedFor() throws Throwable {
        try (FakeNvmlLibrary fake = FakeNvmlLibrary.build(dir)) {
            java.util.concurrent.CountDownLatch loading = new java.util.concurrent.CountDownLatch(1);
            Timings t = Timings.startedAtMain(java.util.OptionalLong.empty());
            GpuCollector early = GpuCollector.loadingNow(() -> {
                loading.countDown();
                return FfmNvml.open(fake.path());
            }, t);
            assertThat(loading.await(30, java.util.concurrent.TimeUnit.SECONDS)).as("NVML's load began at once").isTrue();
            List<PciDevice> pci = List.of(nvidiaGpu("0000:1b:00.0", new PcieLink(5, 5, 16, 16)));
            GpuInventory inv = early.collect(HostRoot.at(dir), pci);
            NvmlShutdowns.awaitAll();
            GpuInventory usual = GpuCollector.withNvml(() -> FfmNvml.open(fake.path())).collect(HostRoot.at(dir), pci);
            assertThat(inv).isEqualTo(usual);
            assertThat(t.phases()).extracting(Timings.Phase::name, Timings.Phase::thread).contains(
                    tuple("NVML load and init", "railyard-nvml"),
                    tuple("waiting for NVML's load and init", Thread.currentThread().getName()));
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> early.collect(HostRoot.at(dir), pci))
                    .as("its NVML is shut down after the first").hasMessageContaining("serves one collection");
        }
    }

    @Test
    void aOneShotCollectionHandsItsReadingsOnBeforeNvmlIsShutDown() throws Throwable {
        try (FakeNvmlLibrary fake = FakeNvmlLibrary.build(dir)) {
            fake.holdShutdown(true);
            try {
                java.util.concurrent.FutureTask<GpuInventory> collect = new java.util.concurrent.FutureTask<>(() ->
                        GpuCollector.withNvml(() -> FfmNvml.open(fake.path())).collect(HostRoot.at(dir), List.of()));
                Thread.ofPlatform().start(collect);
                // with nvmlShutdown held in the driver, the readings still come back
                assertThat(collect.get(30, java.util.concurrent.TimeUnit.SECONDS).gpus()).hasSize(2);
                assertThat(fake.refcount()).as("NVML still open").isEqualTo(1);
            } finally {
                fake.holdShutdown(false);
            }
            NvmlShutdowns.awaitAll();
            assertThat(fake.refcount()).as("and then shut down").isZero();
        }
    }

    @Test
    void aOneShotCollectionThatFailsStillShutsNvmlDown() throws Throwable {
        try (FakeNvmlLibrary fake = FakeNvmlLibrary.build(dir)) {
            GpuCollector gpus = GpuCollector.withNvml(() -> FfmNvml.open(fake.path()));
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> gpus.collect(HostRoot.at(dir), () -> {
                throw new IllegalStateException("the PCI reader failed");
            })).hasMessage("the PCI reader failed");
            NvmlShutdowns.awaitAll();
            assertThat(fake.refcount()).isZero();
        }
    }
}
