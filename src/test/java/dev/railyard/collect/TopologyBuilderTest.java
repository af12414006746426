package dev.railyard.collect;

import dev.railyard.model.Gpu;
import dev.railyard.model.GpuInventory;
import dev.railyard.model.NetInterface;
import dev.railyard.model.PciDevice;
import dev.railyard.model.PcieTopology;
import dev.railyard.model.PcieTopology.Affinity;
import dev.railyard.model.PcieTopology.Endpoint;
import dev.railyard.model.PcieTopology.Kind;
import dev.railyard.model.RdmaDevice;
import dev.railyard.model.Reading;
import dev.railyard.platform.HostRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Synthetic sysfs trees laid out like the machines behind real `nvidia-smi topo -m` samples; every GPU–NIC cell the
 * sample prints must come out the same.
 */
class TopologyBuilderTest {

    private static final String SMI = "/trees/pci/nvidia-smi/";
    private static final GpuInventory NO_NVML = new GpuInventory(Reading.absent("test"), List.of());

    @TempDir
    Path dir;

    /**
     * One host bridge pciDDDD:BB with a root port, a PCIe switch (upstream port at bus+1, downstream ports at bus+2)
     * and one endpoint per kind below its own downstream port. Returns the endpoints' addresses.
     */
    private static List<String> switchBlock(PciTree tree, int bus, int numa, String... kinds) {
        String switchPath = String.format("pci0000:%02x/0000:%02x:01.0/0000:%02x:00.0", bus, bus, bus + 1);
        List<String> addresses = new ArrayList<>();
        for (int k = 0; k < kinds.length; k++) {
            String address = String.format("0000:%02x:00.0", bus + 3 + k);
            String path = switchPath + String.format("/0000:%02x:%02x.0/", bus + 2, k) + address;
            if (kinds[k].equals("gpu")) tree.gpu(path, numa);
            else tree.nic(path, numa);
            addresses.add(address);
        }
        return addresses;
    }

    private static RdmaDevice rdma(String name, String address) {
        return new RdmaDevice(name, Reading.absent("t"), Reading.absent("t"), Reading.absent("t"), Reading.absent("t"),
                Reading.of(address), List.of());
    }

    private static NetInterface netdev(String name, String address) {
        Reading<String> none = Reading.absent("t");
        return new NetInterface(name, Reading.absent("t"), Reading.absent("t"), none, Reading.absent("t"),
                Reading.absent("t"), none, none, Reading.of(address), Reading.absent("t"), none, List.of(), none,
                List.of());
    }

    private static Gpu nvmlGpu(int index, String busId) {
        Reading<String> s = Reading.absent("t");
        return new Gpu(index, busId, Gpu.Source.NVML, s, s, Reading.absent("t"), Reading.absent("t"),
                Reading.absent("t"), Reading.absent("t"), Reading.absent("t"), Reading.absent("t"), Reading.absent("t"),
                Reading.absent("t"), Reading.absent("t"), Reading.absent("t"), Reading.absent("t"), Reading.absent("t"));
    }

    private List<PciDevice> pci() {
        return new PciCollector().collect(HostRoot.at(dir));
    }

    private static Map<String, Affinity> pairs(PcieTopology t) {
        return t.pairs().stream().collect(Collectors.toMap(p -> p.gpu() + "/" + p.nic(), PcieTopology.Pair::affinity));
    }

    /** GKE a4 8x B200: per NUMA node two host bridges, each with a switch holding 2 GPUs and 2 NICs. */
    @Test
    void dranetB200HasPixPairsPerSwitch() {
        PciTree tree = new PciTree(dir);
        List<String> nics = new ArrayList<>();
        int[][] blocks = {{0x00, 0}, {0x20, 0}, {0x80, 1}, {0xa0, 1}};
        for (int[] b : blocks) {
            List<String> a = switchBlock(tree, b[0], b[1], "gpu", "gpu", "nic", "nic");
            nics.add(a.get(2));
            nics.add(a.get(3));
        }
        List<RdmaDevice> rdma = new ArrayList<>();
        for (int i = 0; i < nics.size(); i++) rdma.add(rdma("mlx5_" + i, nics.get(i)));

        PcieTopology t = new TopologyBuilder().build(pci(), NO_NVML, rdma, List.of());
        TopologyMatrixSample smi = TopologyMatrixSample.load(SMI + "dranet-topo-m-8xB200-NV18-8nics-PIX-pairs.txt", 0);
        Map<String, Affinity> got = pairs(t);
        assertThat(got).hasSize(64);
        for (int g = 0; g < 8; g++) {
            for (int n = 0; n < 8; n++) {
                assertThat(got.get("GPU" + g + "/mlx5_" + n)).as("GPU%d/mlx5_%d", g, n)
                        .hasToString(smi.cell("GPU" + g, "mlx5_" + n));
            }
        }
        assertThat(t.endpoints()).filteredOn(e -> e.kind() == Kind.GPU).extracting(Endpoint::name)
                .containsExactly("GPU0", "GPU1", "GPU2", "GPU3", "GPU4", "GPU5", "GPU6", "GPU7");
        assertThat(t.endpoints()).filteredOn(e -> e.kind() == Kind.NIC).extracting(Endpoint::numaNode)
                .containsExactly(Reading.of(0), Reading.of(0), Reading.of(0), Reading.of(0),
                        Reading.of(1), Reading.of(1), Reading.of(1), Reading.of(1));
    }

    /**
     * llm-action A800: GPU1+mlx5_0 and GPU3+mlx5_1 share switches on NUMA 0; GPU7 shares one with a dual-port card
     * (mlx5_2, mlx5_3) on NUMA 1; every other GPU sits alone behind its own host bridge. GPUs come from NVML with
     * its 8-digit upper-case bus ids.
     */
    @Test
    void llmActionA800NicRows() {
        PciTree tree = new PciTree(dir);
        List<String> gpus = new ArrayList<>();
        gpus.add(switchBlock(tree, 0x00, 0, "gpu").getFirst());
        List<String> b1 = switchBlock(tree, 0x20, 0, "gpu", "nic");
        gpus.add(b1.get(0));
        gpus.add(switchBlock(tree, 0x40, 0, "gpu").getFirst());
        List<String> b3 = switchBlock(tree, 0x60, 0, "gpu", "nic");
        gpus.add(b3.get(0));
        gpus.add(switchBlock(tree, 0x80, 1, "gpu").getFirst());
        gpus.add(switchBlock(tree, 0x90, 1, "gpu").getFirst());
        gpus.add(switchBlock(tree, 0xa0, 1, "gpu").getFirst());
        List<String> b7 = switchBlock(tree, 0xb0, 1, "gpu", "nic");
        gpus.add(b7.get(0));
        tree.nic("pci0000:b0/0000:b0:01.0/0000:b1:00.0/0000:b2:01.0/0000:b4:00.1", 1); // second port of the card
        List<RdmaDevice> rdma = List.of(rdma("mlx5_0", b1.get(1)), rdma("mlx5_1", b3.get(1)),
                rdma("mlx5_2", b7.get(1)), rdma("mlx5_3", "0000:b4:00.1"));
        List<Gpu> nvml = new ArrayList<>();
        for (int i = 0; i < gpus.size(); i++) nvml.add(nvmlGpu(i, "0000" + gpus.get(i).toUpperCase()));

        List<PciDevice> pci = pci();
        PcieTopology t = new TopologyBuilder().build(pci, new GpuInventory(Reading.absent("t"), nvml), rdma, List.of());
        TopologyMatrixSample smi = TopologyMatrixSample.load(SMI + "llm-action-topo-matrix-8gpu-NV8-4nics-mlx5.txt", 0);
        Map<String, Affinity> got = pairs(t);
        assertThat(got).hasSize(32);
        for (int g = 0; g < 8; g++) {
            for (int n = 0; n < 4; n++) {
                assertThat(got.get("GPU" + g + "/mlx5_" + n)).as("GPU%d/mlx5_%d", g, n)
                        .hasToString(smi.cell("GPU" + g, "mlx5_" + n));
            }
        }
        // NIC rows of the same sample: the dual-port card is PIX with itself, the two NUMA-0 NICs are NODE.
        Map<String, PciDevice> byAddress = pci.stream().collect(Collectors.toMap(PciDevice::address, Function.identity()));
        String[] nicAddresses = {b1.get(1), b3.get(1), b7.get(1), "0000:b4:00.1"};
        for (int a = 0; a < 4; a++) {
            for (int b = 0; b < 4; b++) {
                if (a == b) continue;
                assertThat(PcieAffinity.between(byAddress.get(nicAddresses[a]), byAddress.get(nicAddresses[b])))
                        .as("mlx5_%d/mlx5_%d", a, b).hasValue(Affinity.valueOf(smi.cell("mlx5_" + a, "mlx5_" + b)));
            }
        }
    }

    /** ml-engineering: two GPUs on different root ports of one host bridge print PHB. */
    @Test
    void gpusOnTwoRootPortsOfOneHostBridgeArePhb() {
        new PciTree(dir)
                .gpu("pci0000:00/0000:00:01.0/0000:01:00.0", -1)
                .gpu("pci0000:00/0000:00:03.1/0000:02:00.0", -1)
                .nic("pci0000:00/0000:00:1c.0/0000:03:00.0", -1);
        TopologyMatrixSample smi = TopologyMatrixSample.load(
                SMI + "ml-engineering-topo-m-dual-nv2-phb-8xA100-NV12-8xH100-NV18.txt", 1);
        List<PciDevice> pci = pci();
        Map<String, PciDevice> byAddress = pci.stream().collect(Collectors.toMap(PciDevice::address, Function.identity()));
        assertThat(PcieAffinity.between(byAddress.get("0000:01:00.0"), byAddress.get("0000:02:00.0")))
                .hasValue(Affinity.valueOf(smi.cell("GPU0", "GPU1")));
        // A NIC on a third root port of the same host bridge: PHB by the same legend; named by its netdev.
        PcieTopology t = new TopologyBuilder().build(pci, NO_NVML, List.of(),
                List.of(netdev("enp3s0np0", "0000:03:00.0")));
        assertThat(pairs(t)).containsExactlyInAnyOrderEntriesOf(
                Map.of("GPU0/enp3s0np0", Affinity.PHB, "GPU1/enp3s0np0", Affinity.PHB));
    }

    /**
     * DGX-A100-like two-level switches (no real sysfs sample): GPU and NIC below different second-level switches of
     * one first-level switch cross several bridges without the host bridge, PXB; below the same one, PIX.
     */
    @Test
    void twoLevelSwitchesArePxbAndVirtualFunctionsAreNotNics() {
        String level1 = "pci0000:00/0000:00:01.1/0000:01:00.0";
        new PciTree(dir)
                .gpu(level1 + "/0000:02:00.0/0000:03:00.0/0000:04:00.0/0000:05:00.0", 0)
                .nic(level1 + "/0000:02:00.0/0000:03:00.0/0000:04:08.0/0000:06:00.0", 0)
                .nic(level1 + "/0000:02:08.0/0000:0a:00.0/0000:0b:00.0/0000:0c:00.0", 0)
                .nic(level1 + "/0000:02:10.0/0000:10:00.0", 0)
                .nic(level1 + "/0000:02:10.0/0000:10:00.2", 0)
                .virtualFunctionOf("0000:10:00.2", "0000:10:00.0");
        PcieTopology t = new TopologyBuilder().build(pci(), NO_NVML, List.of(), List.of());
        assertThat(pairs(t)).containsExactlyInAnyOrderEntriesOf(Map.of(
                "GPU0/0000:06:00.0", Affinity.PIX,
                "GPU0/0000:0c:00.0", Affinity.PXB,
                "GPU0/0000:10:00.0", Affinity.PXB));
    }

    @Test
    void gpuMissingFromPciKeepsItsEndpointButNoPairs() {
        new PciTree(dir).nic("pci0000:00/0000:00:01.0/0000:01:00.0", 0);
        PcieTopology t = new TopologyBuilder().build(pci(),
                new GpuInventory(Reading.absent("t"), List.of(nvmlGpu(0, "00000000:AB:00.0"))),
                List.of(rdma("mlx5_0", "0000:01:00.0")), List.of(netdev("ibp1s0", "0000:01:00.0")));
        assertThat(t.endpoints()).extracting(Endpoint::name).containsExactly("GPU0", "mlx5_0");
        assertThat(t.endpoints().getFirst().pciAddress()).isEqualTo("0000:ab:00.0");
        assertThat(t.pairs()).isEmpty();
    }
}
