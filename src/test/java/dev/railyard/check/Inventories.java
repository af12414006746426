package dev.railyard.check;

import dev.railyard.check.rules.RdmaCountersRule;
import dev.railyard.model.ClusterSpec;
import dev.railyard.model.Gpu;
import dev.railyard.model.GpuInventory;
import dev.railyard.model.HostInfo;
import dev.railyard.model.NetInterface;
import dev.railyard.model.NodeInventory;
import dev.railyard.model.PciDevice;
import dev.railyard.model.PcieLink;
import dev.railyard.model.PcieTopology;
import dev.railyard.model.RdmaDevice;
import dev.railyard.model.RdmaPort;
import dev.railyard.model.Reading;
import dev.railyard.model.XidEvent;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Hand-built inventories for check tests, shaped like the example systems (the V100 homelab: gpuserver1 with 2 x V100 and mlx4_0
 * dual-port 40GbE RoCE). Records are immutable, so tests derive variants with the with* methods.
 */
final class Inventories {

    private Inventories() {
    }

    static final Reading<String> NONE = Reading.absent("not set in this test");

    static HostInfo host(Reading<HostInfo.MemlockLimit> memlock, long rmem, long wmem, Map<String, Integer> governors,
                         Map<String, Boolean> modules) {
        return new HostInfo(Reading.of("Ubuntu 22.04"), Reading.of("5.15.0"), memlock, Reading.of(rmem), Reading.of(wmem),
                Reading.of(governors), Reading.of(modules), List.of());
    }

    static HostInfo tunedHost() {
        return host(Reading.of(new HostInfo.MemlockLimit(true, -1)), 268_435_456L, 268_435_456L,
                Map.of("performance", 40), Map.of("nvidia", true, "nvidia_peermem", true, "mlx4_ib", true));
    }

    static RdmaPort.Gid gid(int index, String gid, RdmaPort.GidType type, String netdev) {
        return new RdmaPort.Gid(index, gid, Reading.of(type), Reading.of(netdev));
    }

    /** The homelab's GID table (show_gids) on mlx4_0:2 / ens6d1: 0,1 = link-local v1/v2, 2 = RoCE v2 ::ffff:10.0.0.1, 3 = v1. */
    static List<RdmaPort.Gid> seed000Gids() {
        return List.of(
                gid(0, "fe80:0000:0000:0000:268a:07ff:fe52:aab1", RdmaPort.GidType.ROCE_V1, "ens6d1"),
                gid(1, "fe80:0000:0000:0000:268a:07ff:fe52:aab1", RdmaPort.GidType.ROCE_V2, "ens6d1"),
                gid(2, "0000:0000:0000:0000:0000:ffff:0a00:0001", RdmaPort.GidType.ROCE_V2, "ens6d1"),
                gid(3, "0000:0000:0000:0000:0000:ffff:0a00:0001", RdmaPort.GidType.ROCE_V1, "ens6d1"));
    }

    static RdmaPort port(String dev, int n, int state, String stateName, int phys, String physName, String rate,
                         double gbps, String width, String linkLayer, int smLid, List<RdmaPort.Gid> gids,
                         Map<String, Long> counters) {
        Map<String, Reading<Long>> c = new java.util.HashMap<>();
        counters.forEach((k, v) -> c.put(k, Reading.of(v)));
        return new RdmaPort(dev, n, Reading.of(new RdmaPort.PortState(state, stateName)),
                Reading.of(new RdmaPort.PortState(phys, physName)), Reading.of(new RdmaPort.LinkRate(gbps, width, rate)),
                Reading.of(linkLayer), Reading.of(smLid == 0 ? 0 : 1), Reading.of(smLid), gids, c, Map.of());
    }

    /** Every error counter the kernel creates for a port with a PMA, all 0. */
    static Map<String, Long> zeroCounters() {
        Map<String, Long> m = new java.util.HashMap<>();
        for (String name : RdmaCountersRule.ERRORS) m.put(name, 0L);
        return m;
    }

    static RdmaPort roceActive(String dev, int n, List<RdmaPort.Gid> gids) {
        return port(dev, n, 4, "ACTIVE", 5, "LinkUp", "40 Gb/sec (4X QDR)", 40, "4X", "Ethernet", 0, gids, zeroCounters());
    }

    static RdmaDevice device(String name, String pci, RdmaPort... ports) {
        return new RdmaDevice(name, Reading.of("2.42.5000"), Reading.of("248a:0703:0052:aab0"), Reading.of("MT_1090111023"),
                Reading.of("MT4103"), Reading.of(pci), List.of(ports));
    }

    static NetInterface netdev(String name, int mtu, String oper, List<String> addrs, String pci, long carrierChanges,
                               NetInterface.RdmaPortRef... ports) {
        return new NetInterface(name, Reading.of(mtu), Reading.of(40000L), Reading.of(oper), Reading.of(true),
                Reading.of(carrierChanges), Reading.of("24:8a:07:52:aa:b1"), Reading.of("mlx4_en"),
                pci == null ? Reading.absent("virtual") : Reading.of(pci), Reading.of(addrs),
                Reading.absent("not in a bond"), List.of(), Reading.absent("not IPoIB"), List.of(ports));
    }

    static PciDevice mlx4Pci() {
        return new PciDevice("0000:04:00.0", PciDevice.VENDOR_MELLANOX, 0x1007, 0x020000, Reading.of("mlx4_core"),
                Reading.of(0), Reading.of(new PcieLink(3, 3, 8, 8)), List.of("pci0000:00", "0000:00:02.0"));
    }

    static Gpu gpu(int index, String pci) {
        return new Gpu(index, pci, Gpu.Source.NVML, Reading.of("Tesla V100-PCIE-16GB"), Reading.of("GPU-" + index),
                Reading.of(new Gpu.Memory(16L << 30, 0)), Reading.of(40), Reading.of(87), Reading.of(30.0),
                Reading.of(250.0), Reading.of(1380), Reading.of(List.of(Gpu.ClockEvent.GPU_IDLE)),
                Reading.of(new Gpu.EccCounts(0, 0, 0, 0)), Reading.absent("row remapping needs A100 or later"),
                Reading.of(new PcieLink(3, 3, 16, 16)), Reading.of(List.of()), Reading.of(true));
    }

    /** S1 gpuserver1 in good order: 2 x V100, mlx4_0 port 1 on ens6 (10.0.1.1) and port 2 on ens6d1 (10.0.0.1). */
    static NodeInventory s1() {
        RdmaPort p1 = roceActive("mlx4_0", 1, List.of(
                gid(2, "0000:0000:0000:0000:0000:ffff:0a00:0101", RdmaPort.GidType.ROCE_V2, "ens6")));
        RdmaPort p2 = roceActive("mlx4_0", 2, seed000Gids());
        NetInterface ens6 = netdev("ens6", 9000, "up", List.of("10.0.1.1/24"), "0000:04:00.0", 2,
                new NetInterface.RdmaPortRef("mlx4_0", 1));
        NetInterface ens6d1 = netdev("ens6d1", 9000, "up", List.of("10.0.0.1/24"), "0000:04:00.0", 2,
                new NetInterface.RdmaPortRef("mlx4_0", 2));
        NetInterface lo = netdev("lo", 65536, "unknown", List.of("127.0.0.1/8"), null, 0);
        PcieTopology topo = new PcieTopology(
                List.of(endpoint(PcieTopology.Kind.GPU, "GPU0", "0000:3b:00.0"), endpoint(PcieTopology.Kind.GPU, "GPU1", "0000:d8:00.0"),
                        endpoint(PcieTopology.Kind.NIC, "mlx4_0", "0000:04:00.0")),
                List.of(new PcieTopology.Pair("GPU0", "mlx4_0", PcieTopology.Affinity.PHB),
                        new PcieTopology.Pair("GPU1", "mlx4_0", PcieTopology.Affinity.PHB)));
        return new NodeInventory("gpuserver1", Instant.parse("2025-01-01T00:00:00Z"), "/", tunedHost(),
                List.of(mlx4Pci()),
                new GpuInventory(Reading.of(new GpuInventory.NvmlSystem("535.183.01", "12.2", "12.535.183.01")),
                        List.of(gpu(0, "00000000:3B:00.0"), gpu(1, "00000000:D8:00.0"))),
                List.of(device("mlx4_0", "0000:04:00.0", p1, p2)), List.of(lo, ens6, ens6d1), topo,
                Reading.of(List.<XidEvent>of()));
    }

    static PcieTopology.Endpoint endpoint(PcieTopology.Kind kind, String name, String pci) {
        return new PcieTopology.Endpoint(kind, name, pci, Reading.of(0), Reading.absent("not needed"));
    }

    /** examples/s1-homelab-v100-roce.yaml, reduced to what the checks read. */
    static ClusterSpec s1Spec() {
        ClusterSpec.Network rail0 = new ClusterSpec.Network("rail0", ClusterSpec.Role.COMPUTE,
                Optional.of(ClusterSpec.LinkLayer.ETHERNET), Optional.of(40.0), Optional.of(9000),
                Optional.of("10.0.0.0/24"), Optional.empty(),
                Map.of("gpuserver1", new ClusterSpec.Binding("ens6d1",
                                Optional.of(new NetInterface.RdmaPortRef("mlx4_0", 2)), Optional.of("10.0.0.1")),
                        "gpuserver2", new ClusterSpec.Binding("ens6d1",
                                Optional.of(new NetInterface.RdmaPortRef("mlx4_0", 2)), Optional.of("10.0.0.2"))));
        ClusterSpec.Network rail1 = new ClusterSpec.Network("rail1", ClusterSpec.Role.COMPUTE,
                Optional.of(ClusterSpec.LinkLayer.ETHERNET), Optional.of(40.0), Optional.of(9000),
                Optional.of("10.0.1.0/24"), Optional.empty(),
                Map.of("gpuserver1", new ClusterSpec.Binding("ens6",
                        Optional.of(new NetInterface.RdmaPortRef("mlx4_0", 1)), Optional.of("10.0.1.1"))));
        return new ClusterSpec("homelab-v100", "cluster.yaml",
                List.of(new ClusterSpec.Node("gpuserver1", "192.168.1.73", Optional.of("192.168.1.72"), Optional.empty()),
                        new ClusterSpec.Node("gpuserver2", "192.168.1.71", Optional.of("192.168.1.70"), Optional.empty())),
                Optional.of(new ClusterSpec.Gpus("Tesla V100-PCIE-16GB", 2, Optional.empty(), Optional.empty())),
                List.of(rail0, rail1), ClusterSpec.Expect.defaults());
    }

    // --- variants -------------------------------------------------------------------------------------------------

    static NodeInventory withHost(NodeInventory i, HostInfo h) {
        return new NodeInventory(i.hostname(), i.takenAt(), i.root(), h, i.pciDevices(), i.gpu(), i.rdmaDevices(),
                i.interfaces(), i.topology(), i.xidEvents());
    }

    static NodeInventory withRdma(NodeInventory i, List<RdmaDevice> rdma) {
        return new NodeInventory(i.hostname(), i.takenAt(), i.root(), i.host(), i.pciDevices(), i.gpu(), rdma,
                i.interfaces(), i.topology(), i.xidEvents());
    }

    static NodeInventory withInterfaces(NodeInventory i, List<NetInterface> nets) {
        return new NodeInventory(i.hostname(), i.takenAt(), i.root(), i.host(), i.pciDevices(), i.gpu(), i.rdmaDevices(),
                nets, i.topology(), i.xidEvents());
    }

    static NodeInventory withGpus(NodeInventory i, List<Gpu> gpus) {
        return new NodeInventory(i.hostname(), i.takenAt(), i.root(), i.host(), i.pciDevices(),
                new GpuInventory(i.gpu().nvml(), gpus), i.rdmaDevices(), i.interfaces(), i.topology(), i.xidEvents());
    }

    static NodeInventory withTopology(NodeInventory i, PcieTopology t) {
        return new NodeInventory(i.hostname(), i.takenAt(), i.root(), i.host(), i.pciDevices(), i.gpu(), i.rdmaDevices(),
                i.interfaces(), t, i.xidEvents());
    }

    static NodeInventory withXids(NodeInventory i, Reading<List<XidEvent>> xids) {
        return new NodeInventory(i.hostname(), i.takenAt(), i.root(), i.host(), i.pciDevices(), i.gpu(), i.rdmaDevices(),
                i.interfaces(), i.topology(), xids);
    }

    /** One port of mlx4_0 replaced (port 1 or 2), the other kept. */
    static NodeInventory withPort(NodeInventory i, RdmaPort replacement) {
        RdmaDevice d = i.rdmaDevices().getFirst();
        List<RdmaPort> ports = d.ports().stream().map(p -> p.port() == replacement.port() ? replacement : p).toList();
        return withRdma(i, List.of(new RdmaDevice(d.name(), d.firmwareVersion(), d.nodeGuid(), d.boardId(), d.hcaType(),
                d.pciAddress(), ports)));
    }

    static Gpu gpuWith(Gpu g, Reading<Integer> temp, Reading<List<Gpu.ClockEvent>> events, Reading<Gpu.EccCounts> ecc,
                       Reading<Gpu.RemappedRows> rows, Reading<PcieLink> link, Reading<List<Gpu.NvLink>> links) {
        return new Gpu(g.index(), g.pciAddress(), g.source(), g.name(), g.uuid(), g.memory(), temp,
                g.slowdownTemperatureC(), g.powerWatts(), g.powerLimitWatts(), g.smClockMhz(), events, ecc, rows, link,
                links, g.persistenceMode());
    }
}
