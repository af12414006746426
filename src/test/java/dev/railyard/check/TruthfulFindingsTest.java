package dev.railyard.check;

import dev.railyard.model.Finding;
import dev.railyard.model.GpuInventory;
import dev.railyard.model.NetInterface;
import dev.railyard.model.NodeInventory;
import dev.railyard.model.PciDevice;
import dev.railyard.model.PcieTopology;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static dev.railyard.check.Inventories.*;
import static org.assertj.core.api.Assertions.assertThat;

/** Findings that name the real cause: a missing driver, not a spec edit or a reseat; no fabric NIC, no PASS. */
class TruthfulFindingsTest {

    private static CheckInput withSpec(NodeInventory inv) {
        return new CheckInput(inv, Optional.of(s1Spec()), "gpuserver1");
    }

    /** The ConnectX-3 is on PCI with mlx4_core, but neither mlx4_ib nor mlx4_en: no RDMA device, no netdevs. */
    private static NodeInventory mlx4WithoutRdmaDriver() {
        NodeInventory s1 = withInterfaces(withRdma(s1(), List.of()),
                List.of(netdev("lo", 65536, "unknown", List.of("127.0.0.1/8"), null, 0)));
        return withHost(s1, host(Reading.of(new dev.railyard.model.HostInfo.MemlockLimit(true, -1)), 268_435_456L,
                268_435_456L, Map.of("performance", 40), Map.of("nvidia", true, "mlx4_ib", false)));
    }

    @Test
    void specdRdmaPortOnANodeWithoutItsDriverFailsNamingTheModule() {
        List<Finding> out = new RdmaPortCheck().run(withSpec(mlx4WithoutRdmaDriver()));
        Finding rail0 = Found.one(out, "rdma.port.state", "mlx4_0:2");
        assertThat(rail0.severity()).isEqualTo(Severity.FAIL);
        assertThat(rail0.observed()).isEqualTo("no RDMA device mlx4_0: NIC 0000:04:00.0 (mlx4_core) has no RDMA driver loaded");
        assertThat(rail0.expected()).isEqualTo("port of network rail0");
        assertThat(rail0.remediation()).isEqualTo("modprobe mlx4_ib\necho mlx4_ib > /etc/modules-load.d/mlx4_ib.conf");
        assertThat(Found.one(out, "rdma.port.state", "mlx4_0:1").severity()).isEqualTo(Severity.FAIL);
        Finding netdev = Found.one(new FabricNetdevCheck().run(withSpec(mlx4WithoutRdmaDriver())), "rdma.netdev.address", "ens6d1");
        assertThat(netdev.observed()).isEqualTo("no such interface, and no RDMA port mlx4_0:2 either");
        assertThat(netdev.remediation()).as("the driver, not a spec edit").startsWith("modprobe mlx4_ib").doesNotContain("spec");
    }

    @Test
    void specdRdmaDeviceUnderAnotherNameOrWithoutAnyNicSaysSo() {
        NodeInventory renamed = withRdma(s1(), List.of(device("mlx4_1", "0000:04:00.0",
                roceActive("mlx4_1", 1, List.of()), roceActive("mlx4_1", 2, seed000Gids()))));
        Finding other = Found.one(new RdmaPortCheck().run(withSpec(renamed)), "rdma.port.state", "mlx4_0:2");
        assertThat(other.severity()).isEqualTo(Severity.FAIL);
        assertThat(other.observed()).isEqualTo("no RDMA device mlx4_0 (this node has mlx4_1)");
        NodeInventory noNic = new NodeInventory("gpuserver1", s1().takenAt(), "/", tunedHost(), List.of(), s1().gpu(),
                List.of(), s1().interfaces(), s1().topology(), s1().xidEvents());
        Finding none = Found.one(new RdmaPortCheck().run(withSpec(noNic)), "rdma.port.state", "mlx4_0:2");
        assertThat(none.observed()).isEqualTo("no RDMA device mlx4_0 and no RDMA-capable NIC on the PCI bus");
        assertThat(none.remediation()).endsWith("\nlspci -nn | grep -iE 'ethernet|infiniband|network'");
    }

    @Test
    void specdPortNumberMissingOnAPresentDevice() {
        NodeInventory onePort = withRdma(s1(), List.of(device("mlx4_0", "0000:04:00.0", roceActive("mlx4_0", 1, List.of()))));
        Finding f = Found.one(new RdmaPortCheck().run(withSpec(onePort)), "rdma.port.state", "mlx4_0:2");
        assertThat(f.severity()).isEqualTo(Severity.FAIL);
        assertThat(f.observed()).isEqualTo("mlx4_0 has no port 2 (ports: 1)");
    }

    @Test
    void zeroGpusWithoutTheNvidiaDriverSaysSoInsteadOfReseating() {
        NodeInventory noDriver = withHost(withGpus(s1(), List.of()), host(Reading.of(new dev.railyard.model.HostInfo.MemlockLimit(true, -1)),
                268_435_456L, 268_435_456L, Map.of("performance", 40), Map.of("nvidia", false)));
        noDriver = new NodeInventory(noDriver.hostname(), noDriver.takenAt(), noDriver.root(), noDriver.host(),
                noDriver.pciDevices(), new GpuInventory(Reading.absent("NVML unavailable: libnvidia-ml.so.1 not found"), List.of()),
                noDriver.rdmaDevices(), noDriver.interfaces(), noDriver.topology(), noDriver.xidEvents());
        Finding count = Found.one(new GpuSpecCheck().run(withSpec(noDriver)), "gpu.count", "gpuserver1");
        assertThat(count.severity()).isEqualTo(Severity.FAIL);
        assertThat(count.observed()).isEqualTo("0 GPUs: no NVIDIA GPU on the PCI bus and no NVIDIA driver loaded");
        assertThat(count.remediation()).doesNotContain("seating and power of the missing GPUs");

        PciDevice v100 = new PciDevice("0000:3b:00.0", PciDevice.VENDOR_NVIDIA, 0x1db4, 0x030200, Reading.absent("no driver"),
                Reading.of(0), Reading.absent("x"), List.of());
        NodeInventory onPci = new NodeInventory(noDriver.hostname(), noDriver.takenAt(), noDriver.root(), noDriver.host(),
                List.of(v100), noDriver.gpu(), noDriver.rdmaDevices(), noDriver.interfaces(), noDriver.topology(), noDriver.xidEvents());
        Finding one = Found.one(new GpuSpecCheck().run(withSpec(onPci)), "gpu.count", "gpuserver1");
        assertThat(one.observed()).isEqualTo("1 GPUs (1 NVIDIA GPUs on PCI): no NVIDIA driver loaded");
        assertThat(one.remediation()).startsWith("modprobe nvidia || ").endsWith("\nnvidia-smi -L");
    }

    @Test
    void affinityJudgesFabricNicsOnlyAndDoesNotApplyWithNone() {
        // A VM-like node: two GPUs next to a virtio management NIC and no RDMA NIC at all.
        PciDevice virtio = new PciDevice("0000:00:03.0", 0x1af4, 0x1000, 0x020000, Reading.of("virtio-pci"),
                Reading.of(0), Reading.absent("x"), List.of("pci0000:00"));
        PcieTopology topo = new PcieTopology(List.of(endpoint(PcieTopology.Kind.GPU, "GPU0", "0000:3b:00.0"),
                endpoint(PcieTopology.Kind.NIC, "eth0", "0000:00:03.0")),
                List.of(new PcieTopology.Pair("GPU0", "eth0", PcieTopology.Affinity.PHB)));
        NodeInventory vm = new NodeInventory("gpuserver1", s1().takenAt(), "/", tunedHost(), List.of(virtio), s1().gpu(),
                List.of(), List.of(netdev("eth0", 1500, "up", List.of("192.168.1.73/24"), "0000:00:03.0", 0)), topo,
                s1().xidEvents());
        Finding f = Found.one(new GpuNicAffinityCheck().run(CheckInput.withoutSpec(vm)), GpuNicAffinityCheck.ID, "gpuserver1");
        // never a PASS; with no fabric and no spec asking for one, not applicable (INFO) rather than UNKNOWN
        assertThat(f.severity()).isEqualTo(Severity.INFO);
        assertThat(f.observed()).isEqualTo("not applicable: no RDMA-capable NIC on PCIe");
        // S1: the ConnectX-3 is the fabric NIC, with and without a spec
        assertThat(new GpuNicAffinityCheck().run(CheckInput.withoutSpec(s1()))).extracting(Finding::severity)
                .containsOnly(Severity.PASS).hasSize(2);
        assertThat(new GpuNicAffinityCheck().run(withSpec(s1()))).extracting(Finding::observed)
                .containsOnly("mlx4_0 PHB");
    }

    @Test
    void everyNodeFixIsCommandsOrCommentsWithNothingToFillIn() {
        NodeInventory[] inventories = {s1(), mlx4WithoutRdmaDriver(), withGpus(s1(), List.of(gpu(0, "00000000:3B:00.0")))};
        for (NodeInventory inv : inventories) {
            for (CheckInput in : List.of(CheckInput.withoutSpec(inv), withSpec(inv))) {
                for (Finding f : CheckRunner.nodeChecks().run(in)) RunnableFixes.assertRunnable(f);
            }
        }
    }

    @Test
    void everyFixOnTheRealTreesIsRunnable(@TempDir Path dir) throws IOException {
        Path h100 = CheckTrees.h100(dir.resolve("h100"));
        Path cx3 = CheckTrees.seed000(dir.resolve("cx3"));
        for (Path root : List.of(h100, cx3)) {
            List<Finding> all = new java.util.ArrayList<>(CheckTrees.check(root));
            for (String spec : List.of("s1-homelab-v100-roce.yaml", "s3-r730-ib-qdr.yaml", "s4-h100-hdr.yaml")) {
                all.addAll(CheckTrees.check(root, CheckTrees.example(spec)));
            }
            assertThat(all).filteredOn(f -> !f.remediation().isEmpty()).isNotEmpty();
            for (Finding f : all) RunnableFixes.assertRunnable(f);
            // and no word of our own notes ("seed 000", "S1") in what the user reads
            for (Finding f : all) {
                assertThat(dev.railyard.Jargon.in(f.id() + " " + f.subject(), String.join("\n", f.subject(),
                        f.observed(), f.expected(), f.remediation()))).isEmpty();
            }
        }
    }
}
