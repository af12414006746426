package dev.railyard.collect;

import dev.railyard.model.GpuInventory;
import dev.railyard.model.HostInfo;
import dev.railyard.model.NetInterface;
import dev.railyard.model.NodeInventory;
import dev.railyard.model.PciDevice;
import dev.railyard.model.RdmaDevice;
import dev.railyard.platform.Clock;
import dev.railyard.platform.HostRoot;

import java.util.List;

/** Runs every collector against one root and assembles the node inventory. */
public final class InventoryCollector {

    private final PciCollector pci = new PciCollector();
    private final GpuCollector gpu;
    private final InfinibandCollector infiniband = new InfinibandCollector();
    private final NetCollector net = new NetCollector();
    private final HostCollector host = new HostCollector();
    private final TopologyBuilder topology = new TopologyBuilder();
    private final KernelLogCollector kernelLog = new KernelLogCollector();
    private final Clock clock;

    public InventoryCollector(GpuCollector gpu, Clock clock) {
        this.gpu = gpu;
        this.clock = clock;
    }

    public NodeInventory collect(HostRoot root) {
        List<PciDevice> pciDevices = pci.collect(root);
        GpuInventory gpus = gpu.collect(root, pciDevices);
        List<RdmaDevice> rdma = infiniband.collect(root);
        List<NetInterface> interfaces = net.collect(root, rdma);
        HostInfo hostInfo = host.collect(root);
        String hostname = root.read("proc/sys/kernel/hostname").orElse("unknown");
        return new NodeInventory(hostname, clock.now(), root.toString(), hostInfo, pciDevices, gpus, rdma, interfaces,
                topology.build(pciDevices, gpus, rdma, interfaces), kernelLog.collect(root));
    }
}
