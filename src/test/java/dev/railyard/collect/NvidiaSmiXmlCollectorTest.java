package dev.railyard.collect;

import dev.railyard.bench.RealSamples;
import dev.railyard.model.Gpu;
import dev.railyard.model.GpuInventory;
import dev.railyard.model.GpuInventory.NvmlSystem;
import dev.railyard.model.NodeInventory;
import dev.railyard.model.PcieLink;
import dev.railyard.model.Reading;
import dev.railyard.platform.Clock;
import dev.railyard.platform.HostRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/** GpuCollector on a captured root: a PCI tree plus the nvidia-smi -q -x that {@code railyard capture} saved. */
class NvidiaSmiXmlCollectorTest {

    @TempDir
    Path dir;

    /** The A100 of the v12 sample sits at 0000:01:00.0; a second GPU at 0000:02:00.0 is on the bus only. */
    private HostRoot capturedRoot(String xml) throws IOException {
        new PciTree(dir).gpu("pci0000:00/0000:00:01.0/0000:01:00.0", 0)
                .gpu("pci0000:00/0000:00:02.0/0000:02:00.0", 0)
                .nic("pci0000:00/0000:00:03.0/0000:03:00.0", 0);
        Path file = dir.resolve(NvidiaSmiXml.CAPTURED_FILE);
        Files.createDirectories(file.getParent());
        Files.writeString(file, xml);
        return HostRoot.at(dir);
    }

    private static String a100() {
        return RealSamples.body("nvidia-smi/telegraf-nvidia-smi-q-x-a100-sxm4-80gb-v12.xml.txt");
    }

    @Test
    void gpusInTheSavedXmlKeepItsReadingsAndAPciGpuItLacksIsListedWithAReason() throws IOException {
        HostRoot root = capturedRoot(a100());
        GpuInventory inv = GpuCollector.forRoot(root).collect(root, new PciCollector().collect(root));
        assertThat(inv.nvml()).isEqualTo(Reading.of(new NvmlSystem("535.54.03", "12.2", "")));
        assertThat(inv.gpus()).extracting(Gpu::index, Gpu::pciAddress, Gpu::source).containsExactly(
                tuple(0, "0000:01:00.0", Gpu.Source.NVIDIA_SMI_CAPTURE),
                tuple(1, "0000:02:00.0", Gpu.Source.PCI_SYSFS));
        Gpu a100 = inv.gpus().get(0);
        assertThat(a100.name()).isEqualTo(Reading.of("NVIDIA A100-SXM4-80GB"));
        assertThat(a100.temperatureC()).isEqualTo(Reading.of(27));
        assertThat(a100.pcieLink()).as("the link nvidia-smi saw, not the tree's").isEqualTo(
                Reading.of(new PcieLink(4, 4, 16, 16)));
        Gpu missing = inv.gpus().get(1);
        assertThat(missing.name()).isEqualTo(Reading.absent("railyard/nvidia-smi-q.xml does not list this GPU "
                + "(fallen off the bus, or not bound to nvidia, when it was captured)"));
        assertThat(missing.pcieLink()).isEqualTo(Reading.of(new PcieLink(5, 5, 16, 16)));
    }

    @Test
    void aTruncatedXmlLeavesThePciGpusWithReadingsFailedOnTheFile() throws IOException {
        String body = a100();
        String cut = body.substring(0, body.indexOf("<temperature>"));
        HostRoot root = capturedRoot(cut);
        GpuInventory inv = GpuCollector.forRoot(root).collect(root, new PciCollector().collect(root));
        assertThat(inv.gpus()).extracting(Gpu::pciAddress, Gpu::source).containsExactly(
                tuple("0000:01:00.0", Gpu.Source.PCI_SYSFS), tuple("0000:02:00.0", Gpu.Source.PCI_SYSFS));
        // HostRoot trims the file, so the last line is the last one with text
        String where = "line " + cut.strip().lines().count() + ", column ";
        assertThat(inv.nvml()).isInstanceOfSatisfying(Reading.Failed.class, f -> {
            assertThat(f.path()).isEqualTo("railyard/nvidia-smi-q.xml");
            assertThat(f.cause()).startsWith(where);
        });
        for (Gpu g : inv.gpus()) {
            assertThat(g.temperatureC()).isInstanceOfSatisfying(Reading.Failed.class, f -> {
                assertThat(f.path()).isEqualTo("railyard/nvidia-smi-q.xml");
                assertThat(f.cause()).startsWith(where).contains("XML");
            });
            assertThat(g.ecc()).isEqualTo(g.temperatureC());
            assertThat(g.pcieLink().isPresent()).as("sysfs still gives the link").isTrue();
        }
    }

    @Test
    void theWholeInventoryOfACapturedRootCarriesTheXmlGpus() throws IOException {
        HostRoot root = capturedRoot(a100());
        NodeInventory inv = new InventoryCollector(GpuCollector.forRoot(root), Clock.system()).collect(root);
        assertThat(inv.gpu().gpus()).extracting(Gpu::source)
                .containsExactly(Gpu.Source.NVIDIA_SMI_CAPTURE, Gpu.Source.PCI_SYSFS);
        assertThat(inv.gpu().gpus().getFirst().uuid()).isEqualTo(Reading.of("GPU-513536b6-7d19-9063-b049-1e69664bb298"));
    }
}
