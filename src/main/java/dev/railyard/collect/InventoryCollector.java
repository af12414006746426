package dev.railyard.collect;

import dev.railyard.model.GpuInventory;
import dev.railyard.model.HostInfo;
import dev.railyard.model.NetInterface;
import dev.railyard.model.NodeInventory;
import dev.railyard.model.PciDevice;
import dev.railyard.model.RdmaDevice;
import dev.railyard.model.Reading;
import dev.railyard.model.XidEvent;
import dev.railyard.platform.Clock;
import dev.railyard.platform.HostRoot;

import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;

/** Runs every collector against one root and assembles the node inventory. */
public final class InventoryCollector {

    private final PciCollector pci = new PciCollector();
    private final GpuCollector gpu;
    private final InfinibandCollector infiniband = new InfinibandCollector();
    private final NetCollector net = new NetCollector();
    private final HostCollector host = new HostCollector();
    private final TopologyBuilder topology = new TopologyBuilder();
    private final Collector<Reading<List<XidEvent>>> kernelLog;
    private final Clock clock;

    public InventoryCollector(GpuCollector gpu, Clock clock) {
        this(gpu, new KernelLogCollector(), clock);
    }

    /** With another source of Xid events: the agent follows the kernel log instead of reading it whole each time. */
    public InventoryCollector(GpuCollector gpu, Collector<Reading<List<XidEvent>>> kernelLog, Clock clock) {
        this.gpu = gpu;
        this.kernelLog = kernelLog;
        this.clock = clock;
    }

    /**
     * NVML's initialisation is the slowest part of a live inventory (a few hundred ms on a multi-GPU node), so the
     * PCI+GPU readers run on a second thread beside the others instead of before them.
     */
    public NodeInventory collect(HostRoot root) {
        FutureTask<List<PciDevice>> pciDevices = new FutureTask<>(() -> pci.collect(root));
        FutureTask<GpuInventory> gpus = new FutureTask<>(() -> {
            pciDevices.run();
            return gpu.collect(root, pciDevices.get());
        });
        Thread.ofPlatform().name("railyard-gpu").start(gpus);
        List<RdmaDevice> rdma = infiniband.collect(root);
        List<NetInterface> interfaces = net.collect(root, rdma);
        HostInfo hostInfo = host.collect(root);
        Reading<List<XidEvent>> xids = kernelLog.collect(root);
        String hostname = root.read("proc/sys/kernel/hostname").orElse("unknown");
        return new NodeInventory(hostname, clock.now(), root.toString(), hostInfo, join(pciDevices), join(gpus), rdma,
                interfaces, topology.build(join(pciDevices), join(gpus), rdma, interfaces), xids);
    }

    private static <T> T join(Future<T> f) {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while collecting the inventory", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException re) throw re;
            throw new IllegalStateException(e.getCause());
        }
    }
}
