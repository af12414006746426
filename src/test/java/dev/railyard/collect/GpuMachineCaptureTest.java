package dev.railyard.collect;

import dev.railyard.check.CheckInput;
import dev.railyard.check.CheckRunner;
import dev.railyard.model.Finding;
import dev.railyard.model.Gpu;
import dev.railyard.model.NetInterface;
import dev.railyard.model.NodeInventory;
import dev.railyard.model.PcieLink;
import dev.railyard.model.PcieTopology;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;
import dev.railyard.platform.Clock;
import dev.railyard.platform.HostRoot;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * `railyard capture` of a 4x H200 machine (see the tree's SOURCE.txt), read back with --root: what the live inventory
 * showed there (docs/gpu-machine-2026-11-22.md) must come back from the capture.
 * Read from the source tree, not target/test-classes, because resource copying would flatten its symlinks.
 */
class GpuMachineCaptureTest {

    private static final Path TREE = Path.of("src/test/resources/trees/h200x4-capture");

    private static NodeInventory inventory() {
        HostRoot root = HostRoot.at(TREE);
        Clock fixed = new Clock() {
            @Override
            public Instant now() {
                return Instant.parse("2026-11-22T10:51:00Z");
            }

            @Override
            public long nanoTime() {
                return 0;
            }
        };
        return new InventoryCollector(GpuCollector.forRoot(root), fixed).collect(root);
    }

    @Test
    void theFourH200sComeBackFromTheSavedNvidiaSmiXml() {
        NodeInventory inv = inventory();
        assertThat(inv.gpu().nvml().optional().map(s -> s.driverVersion() + " " + s.cudaVersion())).contains("580.159.04 13.0");
        List<Gpu> gpus = inv.gpu().gpus();
        assertThat(gpus).extracting(Gpu::pciAddress)
                .containsExactly("0000:00:06.0", "0000:00:07.0", "0000:00:08.0", "0000:00:09.0");
        assertThat(gpus).allSatisfy(g -> {
            assertThat(g.source()).isEqualTo(Gpu.Source.NVIDIA_SMI_CAPTURE);
            assertThat(g.name()).isEqualTo(Reading.of("NVIDIA H200"));
            assertThat(g.memory().optional().map(Gpu.Memory::totalBytes)).contains(143771L << 20);
            assertThat(g.pcieLink()).isEqualTo(Reading.of(new PcieLink(5, 5, 16, 16)));
            assertThat(g.persistenceMode()).isEqualTo(Reading.of(true));
            assertThat(g.ecc().optional().map(Gpu.EccCounts::aggregateUncorrected)).contains(0L);
        });
        assertThat(gpus.getFirst().uuid()).isEqualTo(Reading.of("GPU-3e056f05-700e-c200-6744-b2235289021f"));
    }

    @Test
    void netdevsAddressesAndTheKernelsEinvalSurviveTheCapture() {
        NodeInventory inv = inventory();
        NetInterface eth0 = inv.interfaces().stream().filter(n -> n.name().equals("eth0")).findFirst().orElseThrow();
        assertThat(eth0.mtu()).isEqualTo(Reading.of(1400));
        assertThat(eth0.driver()).isEqualTo(Reading.of("virtio_net"));
        assertThat(eth0.addresses().orElse(List.of())).contains("192.0.2.2/24");
        NetInterface lo = inv.interfaces().stream().filter(n -> n.name().equals("lo")).findFirst().orElseThrow();
        assertThat(lo.speedMbps()).isEqualTo(Reading.failed("sys/devices/virtual/net/lo/speed", "Invalid argument"));
    }

    @Test
    void everyGpuSitsBehindTheHostBridgeFromEth0() {
        PcieTopology topo = inventory().topology();
        assertThat(topo.pairs()).hasSize(4).allSatisfy(p -> {
            assertThat(p.nic()).isEqualTo("eth0");
            assertThat(p.affinity()).isEqualTo(PcieTopology.Affinity.PHB);
        });
    }

    @Test
    void checksOnTheCaptureFindWhatTheyFoundLive() {
        NodeInventory inv = inventory();
        List<Finding> findings = CheckRunner.nodeChecks().run(new CheckInput(inv, Optional.empty(), inv.hostname()));
        assertThat(findings).noneMatch(f -> f.severity() == Severity.FAIL);
        assertThat(findings).filteredOn(f -> f.id().equals("host.net.buffers"))
                .extracting(Finding::severity).containsOnly(Severity.WARN);
        assertThat(findings).filteredOn(f -> f.id().equals("gpu.temperature"))
                .hasSize(4).extracting(Finding::severity).containsOnly(Severity.PASS);
        assertThat(inv.host().modules().orElse(java.util.Map.of())).containsEntry("nvidia", true)
                .containsEntry("nvidia_peermem", false);
    }
}
