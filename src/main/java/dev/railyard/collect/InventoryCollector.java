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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

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

    /**
     * NVML's initialisation is the slowest part of a live inventory (a few hundred ms on an 8-GPU node), so the
     * PCI+GPU readers run beside the others instead of before them; every reader is independent of the rest.
     */
    public NodeInventory collect(HostRoot root) {
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<List<PciDevice>> pciDevices = pool.submit(() -> pci.collect(root));
            Future<GpuInventory> gpus = pool.submit(() -> gpu.collect(root, pciDevices.get()));
            Future<HostInfo> hostInfo = pool.submit(() -> host.collect(root));
            Future<Reading<List<XidEvent>>> xids = pool.submit(() -> kernelLog.collect(root));
            List<RdmaDevice> rdma = infiniband.collect(root);
            List<NetInterface> interfaces = net.collect(root, rdma);
            String hostname = root.read("proc/sys/kernel/hostname").orElse("unknown");
            return new NodeInventory(hostname, clock.now(), root.toString(), join(hostInfo), join(pciDevices),
                    join(gpus), rdma, interfaces, topology.build(join(pciDevices), join(gpus), rdma, interfaces),
                    join(xids));
        }
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
