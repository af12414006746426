package dev.railyard.collect;

import dev.railyard.model.GpuInventory;
import dev.railyard.model.HostInfo;
import dev.railyard.model.NetInterface;
import dev.railyard.model.Unlisted;
import dev.railyard.model.NodeInventory;
import dev.railyard.model.PciDevice;
import dev.railyard.model.RdmaDevice;
import dev.railyard.model.Reading;
import dev.railyard.model.XidEvent;
import dev.railyard.platform.Clock;
import dev.railyard.platform.HostRoot;
import dev.railyard.platform.Timings;

import java.util.ArrayList;
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
    private final Timings timings;
    /** Read the slow-changing parts every this many collections; 1 reads everything every time. */
    private final int slowEvery;
    private long collections;
    private SlowParts slow;
    /** The last collection's RDMA devices: the hw_counters between their reads come from here. */
    private List<RdmaDevice> lastRdma;
    /** The last answers of the sources read within deadlines, lent while a source is stuck. */
    private GpuInventory lastGpus;
    private Reading<List<NetInterface>> lastInterfaces = Reading.of(List.of());
    private String lastHostname = NodeInventory.UNKNOWN_HOSTNAME;

    /**
     * ports/N/hw_counters are read every this many collections (10 s at the agent's 1 s): ~26 files a port that no
     * check or detector judges, served raw to Prometheus, whose scrapes are 15 s or more apart.
     */
    static final int HW_COUNTERS_EVERY = 10;

    /** What changes rarely: the PCI devices, the host's settings, the RDMA devices' attributes and GID tables. */
    private record SlowParts(List<PciDevice> pci, HostInfo host, List<RdmaDevice> rdma) {}

    public InventoryCollector(GpuCollector gpu, Clock clock) {
        this(gpu, new KernelLogCollector(), clock, 1, Timings.off());
    }

    /** With each reader's time recorded (inventory --timings). */
    public InventoryCollector(GpuCollector gpu, Clock clock, Timings timings) {
        this(gpu, new KernelLogCollector(), clock, 1, timings);
    }

    /** With another source of Xid events: the agent follows the kernel log instead of reading it whole each time. */
    public InventoryCollector(GpuCollector gpu, Collector<Reading<List<XidEvent>>> kernelLog, Clock clock) {
        this(gpu, kernelLog, clock, 1, Timings.off());
    }

    /**
     * For the agent, which collects every second: the PCI devices, host settings, RDMA device attributes and GID
     * tables are read every {@code slowEvery} collections; the ports' hw_counters every {@link #HW_COUNTERS_EVERY};
     * port state, rate, counters, carriers and GPU readings every time. The inventory handed on is whole either way,
     * so the same checks judge it.
     */
    public InventoryCollector(GpuCollector gpu, Collector<Reading<List<XidEvent>>> kernelLog, Clock clock, int slowEvery) {
        this(gpu, kernelLog, clock, slowEvery, Timings.off());
    }

    private InventoryCollector(GpuCollector gpu, Collector<Reading<List<XidEvent>>> kernelLog, Clock clock, int slowEvery,
                               Timings timings) {
        if (slowEvery < 1) throw new IllegalArgumentException("slowEvery < 1");
        this.gpu = gpu.timed(timings);
        this.kernelLog = kernelLog;
        this.clock = clock;
        this.slowEvery = slowEvery;
        this.timings = timings;
    }

    /**
     * NVML's initialisation is the slowest part of a live inventory (a few hundred ms on a multi-GPU node), so the
     * GPU reader runs on a second thread beside the others instead of before them, and starts loading NVML at once:
     * the PCI devices it matches GPUs against are read here meanwhile.
     */
    public NodeInventory collect(HostRoot root) {
        if (slowEvery > 1) return collectKeepingSlowParts(root);
        FutureTask<List<PciDevice>> pciDevices = new FutureTask<>(() -> timings.time("pci", () -> pci.collect(root)));
        FutureTask<GpuInventory> gpus = new FutureTask<>(() -> gpu.collect(root, () -> join(pciDevices)));
        Thread.ofPlatform().name("railyard-gpu").start(gpus);
        pciDevices.run();
        Reading<List<RdmaDevice>> rdmaRead = timings.time("infiniband", () -> infiniband.read(root));
        List<RdmaDevice> rdma = rdmaRead.orElse(List.of());
        Reading<List<NetInterface>> netRead = timings.time("net", () -> net.read(root, rdma));
        List<NetInterface> interfaces = netRead.orElse(List.of());
        HostInfo hostInfo = timings.time("host", () -> host.collect(root));
        Reading<List<XidEvent>> xids = timings.time("kernel log (Xid)", () -> kernelLog.collect(root));
        String hostname = root.read("proc/sys/kernel/hostname").orElse(NodeInventory.UNKNOWN_HOSTNAME);
        long waiting = System.nanoTime();
        GpuInventory gpuInventory = join(gpus);
        timings.record("waiting for the GPU thread", waiting);
        return new NodeInventory(hostname, clock.now(), root.toString(), hostInfo, join(pciDevices), gpuInventory, rdma,
                interfaces, timings.time("topology", () -> topology.build(join(pciDevices), gpuInventory, rdma, interfaces)),
                xids, unlisted(netRead, rdmaRead));
    }

    /** One thread, no NVML start-up to hide: the session is kept open by the agent's GPU collector. */
    private NodeInventory collectKeepingSlowParts(HostRoot root) {
        SlowParts s = slow;
        Reading<List<RdmaDevice>> rdmaRead;
        if (s == null || collections % slowEvery == 0) {
            rdmaRead = infiniband.read(root);
            s = new SlowParts(pci.collect(root), host.collect(root), rdmaRead.orElse(List.of()));
            slow = s;
        } else {
            rdmaRead = infiniband.refresh(root, lastRdma, collections % HW_COUNTERS_EVERY == 0);
        }
        List<RdmaDevice> rdma = rdmaRead.orElse(List.of());
        lastRdma = rdma;
        collections++;
        GpuInventory gpus = gpu.collect(root, s.pci());
        Reading<List<NetInterface>> netRead = net.read(root, rdma);
        List<NetInterface> interfaces = netRead.orElse(List.of());
        Reading<List<XidEvent>> xids = kernelLog.collect(root);
        String hostname = root.read("proc/sys/kernel/hostname").orElse(NodeInventory.UNKNOWN_HOSTNAME);
        return new NodeInventory(hostname, clock.now(), root.toString(), s.host(), s.pci(), gpus, rdma,
                interfaces, topology.build(s.pci(), gpus, rdma, interfaces), xids, unlisted(netRead, rdmaRead));
    }

    /** An inventory read source by source within deadlines, and the sources that gave no answer in time. */
    public record Sourced(NodeInventory inventory, List<SourceReads.Stuck> stuck) {
        public Sourced {
            stuck = List.copyOf(stuck);
        }
    }

    /**
     * The agent's read: as {@link #collect} keeping the slow parts, but with every source on its own thread and
     * deadline. A source that gives no answer in time lends its last readings (failed readings the first time) so
     * the inventory stays whole, and is named in {@link Sourced#stuck()} so its components are judged UNKNOWN.
     */
    public Sourced collect(HostRoot root, SourceReads reads) {
        SlowParts s = slow;
        boolean slowDue = s == null || collections % slowEvery == 0;
        boolean hw = collections % HW_COUNTERS_EVERY == 0;
        collections++;
        List<RdmaDevice> previous = lastRdma;
        List<SourceReads.Stuck> stuck = new ArrayList<>();
        var pciRead = slowDue ? reads.start(SourceReads.Source.PCI, () -> pci.collect(root)) : null;
        var hostRead = slowDue ? reads.start(SourceReads.Source.HOST, () -> host.collect(root)) : null;
        var rdmaRead = reads.start(SourceReads.Source.INFINIBAND, () -> slowDue || previous == null
                ? infiniband.read(root) : infiniband.refresh(root, previous, hw));
        var xidRead = reads.start(SourceReads.Source.KERNEL_LOG, () -> kernelLog.collect(root));
        var nameRead = reads.start(SourceReads.Source.HOSTNAME,
                () -> root.read("proc/sys/kernel/hostname").orElse(NodeInventory.UNKNOWN_HOSTNAME));
        List<PciDevice> pciDevices = slowDue ? value(reads.await(pciRead), s == null ? List.of() : s.pci(), stuck) : s.pci();
        var gpuRead = reads.start(SourceReads.Source.GPU, () -> gpu.collect(root, pciDevices));
        Reading<List<RdmaDevice>> rdmaReading = value(reads.await(rdmaRead),
                Reading.of(previous == null ? List.of() : previous), stuck);
        List<RdmaDevice> rdma = rdmaReading.orElse(List.of());
        var netRead = reads.start(SourceReads.Source.NET, () -> net.read(root, rdma));
        HostInfo hostInfo = slowDue ? value(reads.await(hostRead), s == null ? null : s.host(), stuck) : s.host();
        if (hostInfo == null) hostInfo = unreadHost(stuck.getLast().why());
        Reading<List<XidEvent>> xids = value(reads.await(xidRead), null, stuck);
        if (xids == null) xids = Reading.failed(KernelLogCollector.CAPTURED_PATH, stuck.getLast().why());
        String hostname = value(reads.await(nameRead), lastHostname, stuck);
        GpuInventory gpus = value(reads.await(gpuRead), lastGpus, stuck);
        if (gpus == null) gpus = new GpuInventory(Reading.failed("GPUs", stuck.getLast().why()), List.of());
        Reading<List<NetInterface>> netReading = value(reads.await(netRead), lastInterfaces, stuck);
        List<NetInterface> interfaces = netReading.orElse(List.of());
        if (slowDue) slow = s = new SlowParts(pciDevices, hostInfo, rdma);
        lastRdma = rdma;
        lastGpus = gpus;
        lastInterfaces = netReading;
        lastHostname = hostname;
        return new Sourced(new NodeInventory(hostname, clock.now(), root.toString(), hostInfo, pciDevices, gpus, rdma,
                interfaces, topology.build(pciDevices, gpus, rdma, interfaces), xids, unlisted(netReading, rdmaReading)), stuck);
    }

    private static List<Unlisted> unlisted(Reading<List<NetInterface>> net, Reading<List<RdmaDevice>> rdma) {
        List<Unlisted> out = new ArrayList<>(2);
        if (net instanceof Reading.Failed<List<NetInterface>>(String path, String cause)) {
            out.add(new Unlisted(Unlisted.Subsystem.NET, path, cause));
        }
        if (rdma instanceof Reading.Failed<List<RdmaDevice>>(String path, String cause)) {
            out.add(new Unlisted(Unlisted.Subsystem.INFINIBAND, path, cause));
        }
        return out;
    }

    private static <T> T value(SourceReads.Outcome<T> outcome, T last, List<SourceReads.Stuck> stuck) {
        return switch (outcome) {
            case SourceReads.Outcome.Read<T>(T v) -> v;
            case SourceReads.Outcome.NotRead<T>(SourceReads.Stuck st) -> {
                stuck.add(st);
                yield last;
            }
        };
    }

    private static HostInfo unreadHost(String why) {
        return new HostInfo(Reading.failed("host", why), Reading.failed("host", why), Reading.failed("host", why),
                Reading.failed("host", why), Reading.failed("host", why), Reading.failed("host", why),
                Reading.failed("host", why), List.of());
    }

    /** The task's result; its RuntimeException as thrown, an interrupt as IllegalStateException. */
    static <T> T join(Future<T> f) {
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
