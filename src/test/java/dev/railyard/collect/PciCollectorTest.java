package dev.railyard.collect;

import dev.railyard.model.PciDevice;
import dev.railyard.model.PcieLink;
import dev.railyard.model.Reading;
import dev.railyard.platform.HostRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

class PciCollectorTest {

    @TempDir
    Path dir;

    private Map<String, PciDevice> collect() {
        return new PciCollector().collect(HostRoot.at(dir)).stream()
                .collect(Collectors.toMap(PciDevice::address, Function.identity()));
    }

    /** Expected values are node_exporter's e2e output for the same tree (node_pcidevice_* metrics). */
    @Test
    void readsNodeExporterFixture() {
        HostTtar.unpack("/trees/pci/node_exporter-sys-bus-pci.ttar", dir);
        Map<String, PciDevice> pci = collect();
        assertThat(pci).containsOnlyKeys("0000:00:02.1", "0000:01:00.0", "0000:45:00.0");

        PciDevice nvme = pci.get("0000:01:00.0");
        assertThat(nvme.vendorId()).isEqualTo(0xc0a9);
        assertThat(nvme.deviceId()).isEqualTo(0x540a);
        assertThat(nvme.classCode()).isEqualTo(0x010802);
        assertThat(nvme.driver()).isEqualTo(Reading.of("nvme"));
        assertThat(nvme.numaNode()).isEqualTo(Reading.absent("no NUMA affinity reported"));
        // 8 GT/s x4 trained on a 16 GT/s x4 device
        assertThat(nvme.link()).isEqualTo(Reading.of(new PcieLink(3, 4, 4, 4)));
        assertThat(nvme.link().orElse(null).degraded()).isTrue();
        assertThat(nvme.upstreamPath()).containsExactly("pci0000:00", "0000:00:02.1");

        PciDevice nic = pci.get("0000:45:00.0");
        assertThat(nic.isNetwork()).isTrue();
        assertThat(nic.driver()).isEqualTo(Reading.of("igb"));
        assertThat(nic.numaNode()).isEqualTo(Reading.of(0));
        assertThat(nic.link()).isEqualTo(Reading.of(new PcieLink(2, 2, 4, 4)));
        assertThat(nic.upstreamPath()).containsExactly("pci0000:40", "0000:40:01.3");

        PciDevice rootPort = pci.get("0000:00:02.1");
        assertThat(rootPort.classCode()).isEqualTo(0x060400);
        assertThat(rootPort.driver()).isEqualTo(Reading.of("pcieport"));
        assertThat(rootPort.link()).isEqualTo(Reading.of(new PcieLink(3, 3, 4, 8)));
        assertThat(rootPort.upstreamPath()).containsExactly("pci0000:00");
        assertThat(pci.values()).noneMatch(PciDevice::virtualFunction);
    }

    @Test
    void upstreamPathListsEveryBridgeFromTheHostBridge() {
        new PciTree(dir).gpu("pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:08.0/0000:03:00.0", 0);
        PciDevice gpu = collect().get("0000:03:00.0");
        assertThat(gpu.upstreamPath()).containsExactly("pci0000:00", "0000:00:01.0", "0000:01:00.0", "0000:02:08.0");
        assertThat(gpu.isNvidiaGpu()).isTrue();
        assertThat(gpu.link()).isEqualTo(Reading.of(new PcieLink(5, 5, 16, 16)));
        assertThat(collect()).containsKeys("0000:00:01.0", "0000:01:00.0", "0000:02:08.0");
    }

    @Test
    void pathsBeforeTheHostBridgeAreDropped() throws Exception {
        // Hyper-V / Azure: PCI host bridges hang below VMBus devices.
        new PciTree(dir).gpu("LNXSYSTM:00/LNXSYBUS:00/PNP0A03:00/device:07/VMBUS:01/47505500-0001-0000-3130-444531303244"
                + "/pci0001:00/0001:00:00.0", -1);
        PciDevice gpu = collect().get("0001:00:00.0");
        assertThat(gpu.upstreamPath()).containsExactly("pci0001:00");
        assertThat(gpu.numaNode()).isInstanceOf(Reading.Absent.class);
    }

    @Test
    void unknownSpeedMissingLinkAndVirtualFunctions() throws Exception {
        PciTree tree = new PciTree(dir)
                .nic("pci0000:00/0000:00:02.0/0000:17:00.0", 0)
                .nic("pci0000:00/0000:00:02.0/0000:17:00.2", 0)
                .virtualFunctionOf("0000:17:00.2", "0000:17:00.0");
        Path vf = dir.resolve("sys/devices/pci0000:00/0000:00:02.0/0000:17:00.2");
        Files.delete(vf.resolve("current_link_speed"));
        Path pf = dir.resolve("sys/devices/pci0000:00/0000:00:02.0/0000:17:00.0");
        Files.writeString(pf.resolve("current_link_speed"), "Unknown\n");
        Files.delete(pf.resolve("driver"));
        Map<String, PciDevice> pci = collect();
        assertThat(pci.get("0000:17:00.0").link()).isEqualTo(Reading.absent("link speed reported as Unknown"));
        assertThat(pci.get("0000:17:00.0").driver()).isEqualTo(Reading.absent("no driver bound"));
        assertThat(pci.get("0000:17:00.0").virtualFunction()).isFalse();
        assertThat(pci.get("0000:17:00.2").virtualFunction()).isTrue();
        assertThat(pci.get("0000:17:00.2").link()).isInstanceOf(Reading.Absent.class);
        assertThat(tree).isNotNull();
    }

    @Test
    void garbledIdsKeepTheDeviceButClassifyNothing() throws Exception {
        new PciTree(dir).gpu("pci0000:00/0000:00:01.0/0000:01:00.0", 0);
        Files.writeString(dir.resolve("sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/vendor"), "garbage\n");
        Files.writeString(dir.resolve("sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/current_link_speed"), "fast\n");
        PciDevice d = collect().get("0000:01:00.0");
        assertThat(d.vendorId()).isEqualTo(-1);
        assertThat(d.isNvidiaGpu()).isFalse();
        assertThat(d.link()).isInstanceOf(Reading.Failed.class);
    }

    @Test
    void readsEveryFunctionOfALargeTree() {
        PciTree tree = new PciTree(dir);
        for (int bus = 1; bus <= 64; bus++) {
            for (int fn = 0; fn < 8; fn++) {
                tree.nic(String.format("pci0000:%02x/0000:%02x:01.0/0000:%02x:00.%d", bus * 2, bus * 2, bus * 2 + 1, fn), 0);
            }
        }
        List<PciDevice> all = new PciCollector().collect(HostRoot.at(dir));
        // speed is measured as a benchmark (docs/benchmarks.md), never asserted in a test
        assertThat(all).hasSize(64 * 8 + 64);
    }

    @Test
    void liveRootCollectsWithoutExceptions() {
        List<PciDevice> live = new PciCollector().collect(HostRoot.live());
        assertThat(live).allSatisfy(d -> assertThat(PciAddress.isFunction(d.address())).isTrue());
        assertThat(live.size()).isEqualTo(HostRoot.live().list("sys/bus/pci/devices").size());
    }

    @Test
    void nvmlAddressesNormaliseToSysfsForm() {
        assertThat(PciAddress.normalize("00000000:1A:00.0")).isEqualTo("0000:1a:00.0");
        assertThat(PciAddress.normalize("0000:1a:00.0")).isEqualTo("0000:1a:00.0");
        assertThat(PciAddress.normalize("00010000:01:00.0")).isEqualTo("00010000:01:00.0");
    }
}
