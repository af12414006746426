package dev.railyard.spec;

import dev.railyard.model.Gpu;
import dev.railyard.model.GpuInventory;
import dev.railyard.model.HostInfo;
import dev.railyard.model.NetInterface;
import dev.railyard.model.NetInterface.RdmaPortRef;
import dev.railyard.model.NodeInventory;
import dev.railyard.model.PcieTopology;
import dev.railyard.model.RdmaDevice;
import dev.railyard.model.RdmaPort;
import dev.railyard.model.Reading;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/** Hand-built inventories for the starter-spec tests; only the fields init reads are filled. */
final class InventoryFixture {

    private static final Reading<String> NONE = Reading.absent("not in fixture");

    private InventoryFixture() {
    }

    static NodeInventory node(String hostname, GpuInventory gpus, List<RdmaDevice> rdma, List<NetInterface> ifs) {
        HostInfo host = new HostInfo(NONE, NONE, Reading.absent("x"), Reading.absent("x"), Reading.absent("x"),
                Reading.absent("x"), Reading.absent("x"), List.of());
        return new NodeInventory(hostname, Instant.parse("2026-01-15T10:00:00Z"), "/", host, List.of(), gpus, rdma,
                ifs, new PcieTopology(List.of(), List.of()), Reading.absent("x"));
    }

    static GpuInventory nvml(String driver, String cuda, String... names) {
        List<Gpu> gpus = new java.util.ArrayList<>();
        for (int i = 0; i < names.length; i++) gpus.add(gpu(i, Reading.of(names[i])));
        return new GpuInventory(Reading.of(new GpuInventory.NvmlSystem(driver, cuda, "13.580.126.09")), gpus);
    }

    static GpuInventory noGpus() {
        return new GpuInventory(Reading.absent("libnvidia-ml.so.1 not found"), List.of());
    }

    static Gpu gpu(int index, Reading<String> name) {
        return new Gpu(index, "0000:0" + (index + 2) + ":00.0", Gpu.Source.NVML, name, Reading.absent("x"),
                Reading.absent("x"), Reading.absent("x"), Reading.absent("x"), Reading.absent("x"),
                Reading.absent("x"), Reading.absent("x"), Reading.absent("x"), Reading.absent("x"),
                Reading.absent("x"), Reading.absent("x"), Reading.absent("x"), Reading.absent("x"));
    }

    static RdmaDevice device(String name, RdmaPort... ports) {
        return new RdmaDevice(name, NONE, NONE, NONE, NONE, NONE, List.of(ports));
    }

    /** state 4 is ACTIVE, 1 DOWN; linkLayer as sysfs writes it ("Ethernet", "InfiniBand"). */
    static RdmaPort port(String device, int port, int state, String linkLayer, double gbps, String rateText) {
        RdmaPort.PortState s = new RdmaPort.PortState(state, state == 4 ? "ACTIVE" : "DOWN");
        return new RdmaPort(device, port, Reading.of(s), Reading.of(new RdmaPort.PortState(5, "LinkUp")),
                Reading.of(new RdmaPort.LinkRate(gbps, "4X", rateText)), Reading.of(linkLayer),
                Reading.absent("x"), Reading.absent("x"), List.of(), Map.of(), Map.of());
    }

    static NetInterface netdev(String name, int mtu, String state, List<String> addresses, Reading<String> ipoibMode,
                               RdmaPortRef... ports) {
        return new NetInterface(name, Reading.of(mtu), Reading.absent("x"), Reading.of(state), Reading.of(state.equals("up")),
                Reading.absent("x"), NONE, NONE, NONE, Reading.of(addresses), Reading.absent("not a bond member"),
                List.of(), ipoibMode, List.of(ports));
    }
}
