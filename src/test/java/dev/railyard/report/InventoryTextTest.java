package dev.railyard.report;

import dev.railyard.model.Gpu;
import dev.railyard.model.GpuInventory;
import dev.railyard.model.NodeInventory;
import dev.railyard.model.PcieLink;
import dev.railyard.model.PcieTopology;
import dev.railyard.model.PcieTopology.Affinity;
import dev.railyard.model.PcieTopology.Endpoint;
import dev.railyard.model.PcieTopology.Kind;
import dev.railyard.model.Reading;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The parts of the text no captured tree exercises: NVML GPUs and a GPU-NIC matrix. */
class InventoryTextTest {

    @TempDir
    Path dir;

    /** An empty node with the given GPUs and topology, so only those sections carry data. */
    private NodeInventory node(GpuInventory gpus, PcieTopology topology) {
        NodeInventory empty = InventoryTextTrees.collect(dir);
        return new NodeInventory("gpuserver1", empty.takenAt(), empty.root(), empty.host(), List.of(), gpus,
                List.of(), List.of(), topology, empty.xidEvents());
    }

    /** Values as nvidia-smi -q prints them for a V100 of the homelab example (ml-engineering's excerpt for the remap case). */
    @Test
    void nvmlGpuTakesTwoLinesAfterItsIdentity() {
        Gpu v100 = new Gpu(0, "00000000:3B:00.0", Gpu.Source.NVML, Reading.of("Tesla V100-PCIE-16GB"),
                Reading.of("GPU-5fc4a8f5-7a3c-2b2f-8e6e-3a2b1c0d9e8f"),
                Reading.of(new Gpu.Memory(16_945_709_056L, 524_288_000L)), Reading.of(38), Reading.of(87),
                Reading.of(26.5), Reading.of(250.0), Reading.of(135),
                Reading.of(List.of(Gpu.ClockEvent.GPU_IDLE, Gpu.ClockEvent.SW_THERMAL_SLOWDOWN)),
                Reading.of(new Gpu.EccCounts(0, 0, 12, 1)), Reading.absent("row remapping needs A100 or later"),
                Reading.of(new PcieLink(3, 3, 8, 16)),
                Reading.of(List.of(new Gpu.NvLink(0, true), new Gpu.NvLink(1, false))), Reading.failed("nvmlDeviceGetPersistenceMode", "NVML_ERROR_NO_PERMISSION"));
        GpuInventory gpus = new GpuInventory(
                Reading.of(new GpuInventory.NvmlSystem("535.183.01", "12.2", "12.535.183.01")), List.of(v100));
        String text = InventoryText.render(node(gpus, new PcieTopology(List.of(), List.of())), new TextStyle(10_000, false));
        assertThat(text).contains("""
                GPUs (1)
                  NVML: driver 535.183.01, CUDA 12.2, NVML 12.535.183.01
                  GPU0  Tesla V100-PCIE-16GB  00000000:3B:00.0  GPU-5fc4a8f5-7a3c-2b2f-8e6e-3a2b1c0d9e8f  \
                persistence failed (nvmlDeviceGetPersistenceMode: NVML_ERROR_NO_PERMISSION)
                        temp 38 C (slowdown 87 C)  power 26.5 / 250 W  SM 135 MHz  mem 500.0 MiB / 15.8 GiB  \
                PCIe Gen3 x8 (max Gen3 x16)
                        ECC volatile 0/0 aggregate 12/1 (corr/uncorr)  \
                remapped rows absent (row remapping needs A100 or later)  NVLinks 1/2 up (down: 1)  \
                clock events GPU_IDLE,SW_THERMAL_SLOWDOWN
                """);
    }

    @Test
    void aGpuSeenOnlyOnPciSaysWhyOnce() {
        String reason = "NVML unavailable: cannot load libnvidia-ml.so.1";
        Reading<String> r = Reading.absent(reason);
        Gpu lost = new Gpu(0, "0000:1b:00.0", Gpu.Source.PCI_SYSFS, r, r, Reading.absent(reason), Reading.absent(reason),
                Reading.absent(reason), Reading.absent(reason), Reading.absent(reason), Reading.absent(reason),
                Reading.absent(reason), Reading.absent(reason), Reading.absent(reason),
                Reading.of(new PcieLink(5, 5, 16, 16)), Reading.absent(reason), Reading.absent(reason));
        String text = InventoryText.render(node(new GpuInventory(Reading.absent(reason), List.of(lost)),
                new PcieTopology(List.of(), List.of())));
        assertThat(text).contains("""
                  NVML: NVML unavailable: cannot load libnvidia-ml.so.1
                  GPU0  0000:1b:00.0  (from PCI sysfs only)  PCIe Gen5 x16
                        NVML readings absent: NVML unavailable: cannot load libnvidia-ml.so.1
                """);
        assertThat(text.split("NVML unavailable", -1)).hasSize(3);
    }

    /**
     * The matrix of dranet's GKE B200 sample (8 GPUs, 8 NICs, PIX pairs per switch), given as the model: every row the
     * text prints must read as nvidia-smi's, cell for cell.
     */
    @Test
    void matrixRowsReadAsNvidiaSmiPrintedThem() {
        List<String> sample = InventoryTextTrees.resource("/trees/pci/nvidia-smi/dranet-topo-m-8xB200-NV18-8nics-PIX-pairs.txt")
                .lines().filter(l -> l.matches("GPU[0-7] .*")).toList();
        List<Endpoint> endpoints = new ArrayList<>();
        List<PcieTopology.Pair> pairs = new ArrayList<>();
        for (int g = 0; g < 8; g++) {
            endpoints.add(new Endpoint(Kind.GPU, "GPU" + g, String.format("0000:%02x:00.0", 0x10 + g),
                    Reading.of(g / 4), Reading.of(new PcieLink(5, 5, 16, 16))));
        }
        for (int n = 0; n < 8; n++) {
            endpoints.add(new Endpoint(Kind.NIC, "mlx5_" + n, String.format("0000:%02x:00.0", 0x90 + n),
                    Reading.of(n / 4), Reading.of(new PcieLink(5, 5, 16, 16))));
        }
        List<List<String>> expected = new ArrayList<>();
        for (String row : sample) {
            String[] cols = row.trim().split("\\s+");
            expected.add(List.of(cols).subList(9, 17));
            for (int n = 0; n < 8; n++) pairs.add(new PcieTopology.Pair(cols[0], "mlx5_" + n, Affinity.valueOf(cols[9 + n])));
        }
        String text = InventoryText.render(node(new GpuInventory(Reading.absent("x"), List.of()),
                new PcieTopology(endpoints, pairs)));
        List<String> rendered = text.lines().filter(l -> l.matches("  GPU[0-7]  [A-Z].*")).toList();
        assertThat(rendered).hasSize(8);
        for (int g = 0; g < 8; g++) {
            assertThat(List.of(rendered.get(g).trim().split("\\s+")).subList(1, 9)).as("GPU%d", g)
                    .isEqualTo(expected.get(g));
        }
        assertThat(text).contains("        NIC0  NIC1  NIC2  NIC3  NIC4  NIC5  NIC6  NIC7\n")
                .contains("  GPU0  PIX   PIX   NODE  NODE  SYS   SYS   SYS   SYS\n")
                .contains("  NIC7  mlx5_7  0000:97:00.0  1     Gen5 x16\n")
                .contains("PIX  = at most a single PCIe bridge (same PCIe switch)");
    }

    @Test
    void ipv4MappedGidsAndSizes() {
        assertThat(Gid4.ipv4("0000:0000:0000:0000:0000:ffff:0a98:000c")).isEqualTo("10.152.0.12");
        assertThat(Gid4.isIpv4Mapped("fe80:0000:0000:0000:a4ed:ccff:fe8b:1994")).isFalse();
        assertThat(ReadingText.bytes(1023)).isEqualTo("1023 B");
        assertThat(ReadingText.bytes(4631917L * 4)).isEqualTo("17.7 MiB");
        assertThat(ReadingText.link(new PcieLink(0, 4, 4, 4))).isEqualTo("Gen? x4 (max Gen4 x4)");
        assertThat(NetSection.speed(100_000)).isEqualTo("100G");
        assertThat(NetSection.speed(2500)).isEqualTo("2.5G");
        assertThat(NetSection.speed(100)).isEqualTo("100M");
    }
}
