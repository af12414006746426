package dev.railyard.collect;

import dev.railyard.model.Gpu;
import dev.railyard.model.GpuInventory;
import dev.railyard.model.PciDevice;
import dev.railyard.model.Reading;
import dev.railyard.nativelib.FfmNvml;
import dev.railyard.nativelib.NvmlLoad;
import dev.railyard.platform.HostRoot;
import dev.railyard.platform.Timings;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * GPUs through NVML on a live node; from PCI sysfs (vendor 0x10de) when NVML is unavailable. On a captured tree
 * the GPUs come from the NVML readings {@code railyard capture} saved (railyard/nvml.json), or from older captures'
 * nvidia-smi -q -x output.
 * A GPU on the PCI bus that NVML (or the saved output) does not list (fallen off the bus, driver not bound) is
 * still reported, from PCI.
 */
public final class GpuCollector {

    private final Supplier<NvmlLoad> nvml;
    private final boolean captured;
    private final boolean keepOpen;
    /** At one sample a second, once a minute. */
    static final int LINK_ERRORS_EVERY = 60;
    private final java.util.Map<String, Reading<List<Gpu.NvLinkErrors>>> lastLinkErrors = new java.util.HashMap<>();
    private long collections;
    private final Timings timings;
    /** The phase a collection's wait for {@link #nvml} is timed as: the load itself, or the wait for one under way. */
    private final String loadPhase;
    private NvmlLoad session;

    private static final String LOAD_PHASE = "NVML load and init";

    private GpuCollector(Supplier<NvmlLoad> nvml, boolean captured, boolean keepOpen, Timings timings, String loadPhase) {
        this.nvml = nvml;
        this.captured = captured;
        this.keepOpen = keepOpen;
        this.timings = timings;
        this.loadPhase = loadPhase;
    }

    private GpuCollector(Supplier<NvmlLoad> nvml, boolean captured) {
        this(nvml, captured, false, Timings.off(), LOAD_PHASE);
    }

    /**
     * One NVML session kept open across collections, for the agent: nvmlInit takes hundreds of ms on a multi-GPU
     * node, too much to pay every second. A library that could not be loaded is tried again on the next collection.
     */
    public static GpuCollector keepingOpen(Supplier<NvmlLoad> nvml) {
        return new GpuCollector(nvml, false, true, Timings.off(), LOAD_PHASE);
    }

    /**
     * The live node's NVML, its load and init started at once on a thread of its own: a one-shot inventory's
     * longest path is NVML's, and it starts before the other readers are even built.
     * One collection only; NVML is shut down once its readings are handed on.
     */
    public static GpuCollector loadingNow(Timings timings) {
        return loadingNow(FfmNvml::open, timings);
    }

    /** As {@link #loadingNow(Timings)} with another NVML, such as a test's fake library. */
    static GpuCollector loadingNow(Supplier<NvmlLoad> open, Timings timings) {
        FutureTask<NvmlLoad> load = new FutureTask<>(() -> timings.time(LOAD_PHASE, open));
        // a daemon: a usage error found meanwhile exits without waiting for the driver
        Thread.ofPlatform().daemon().name("railyard-nvml").start(load);
        AtomicBoolean used = new AtomicBoolean();
        return new GpuCollector(() -> {
            // the collection after this one would read through a library its predecessor has shut down and unloaded
            if (used.getAndSet(true)) throw new IllegalStateException("a collector loading NVML now serves one collection");
            return InventoryCollector.join(load);
        }, false, false, timings, "waiting for NVML's load and init");
    }

    /** The same collector, recording NVML's load and init, reads and shutdown as phases (a one-shot inventory's). */
    GpuCollector timed(Timings t) {
        return keepOpen || !t.on() ? this : new GpuCollector(nvml, captured, false, t, loadPhase);
    }

    /** NVML on a live root; the saved nvidia-smi -q -x on a captured tree, whose GPUs the local library knows nothing of. */
    public static GpuCollector forRoot(HostRoot root) {
        if (root.isLive()) return new GpuCollector(FfmNvml::open, false);
        return new GpuCollector(() -> new NvmlLoad.Unavailable("captured tree " + root + " has no "
                + NvmlCaptureFile.FILE + " or " + NvidiaSmiXml.CAPTURED_FILE + " (NVML is only asked on the live node)"),
                true);
    }

    /** A collector over a given NVML, such as a test's fake library. */
    public static GpuCollector withNvml(Supplier<NvmlLoad> nvml) {
        return new GpuCollector(nvml, false);
    }

    public GpuInventory collect(HostRoot root, List<PciDevice> pci) {
        return collect(root, () -> pci);
    }

    /**
     * As {@link #collect(HostRoot, List)} with the PCI devices asked for only once NVML is loaded, so a caller can
     * read them on another thread while NVML initialises.
     */
    public GpuInventory collect(HostRoot root, Supplier<List<PciDevice>> pciDevices) {
        if (captured && root.exists(NvmlCaptureFile.FILE)) {
            return timings.time("GPUs from railyard/nvml.json", () -> fromNvmlCapture(root, pciDevices.get()));
        }
        if (captured && root.exists(NvidiaSmiXml.CAPTURED_FILE)) {
            return timings.time("GPUs from nvidia-smi -q -x", () -> fromCapture(root, pciDevices.get()));
        }
        NvmlLoad load = keepOpen ? session() : timings.time(loadPhase, nvml);
        return switch (load) {
            case NvmlLoad.Ready(FfmNvml lib) when keepOpen -> withLinkErrorsOnceAMinute(lib, pciDevices.get());
            case NvmlLoad.Ready(FfmNvml lib) -> {
                GpuInventory read;
                try {
                    List<PciDevice> pci = pciDevices.get();
                    read = timings.time("NVML reads", () -> fromNvml(lib, pci, false));
                } catch (RuntimeException | Error e) {
                    lib.close();
                    throw e;
                }
                // the readings go on to the output at once; nvmlShutdown (4-9 ms in the driver) runs beside it
                NvmlShutdowns.start(() -> timings.time("NVML shutdown", lib::close));
                yield read;
            }
            case NvmlLoad.Unavailable(String reason) ->
                    new GpuInventory(Reading.absent("NVML unavailable: " + reason), fromPci(pciDevices.get(), 0,
                            Set.of(), Reading.absent("NVML unavailable: " + reason)));
        };
    }

    /**
     * The agent's reads: the NVLink error counters (four NVML calls per link) every {@link #LINK_ERRORS_EVERY}th
     * collection, the last ones read in between, so the series stay continuous without paying for them every second.
     */
    private synchronized GpuInventory withLinkErrorsOnceAMinute(FfmNvml lib, List<PciDevice> pci) {
        boolean due = collections++ % LINK_ERRORS_EVERY == 0;
        GpuInventory read = fromNvml(lib, pci, due);
        if (due) {
            lastLinkErrors.clear();
            read.gpus().forEach(g -> lastLinkErrors.put(g.pciAddress(), g.nvlinkErrors()));
            return read;
        }
        List<Gpu> gpus = read.gpus().stream()
                .map(g -> lastLinkErrors.containsKey(g.pciAddress()) ? g.withNvlinkErrors(lastLinkErrors.get(g.pciAddress())) : g)
                .toList();
        return new GpuInventory(read.nvml(), gpus);
    }

    private synchronized NvmlLoad session() {
        if (!(session instanceof NvmlLoad.Ready)) session = nvml.get();
        return session;
    }

    private static GpuInventory fromNvml(FfmNvml lib, List<PciDevice> pci, boolean withLinkErrors) {
        Reading<List<Gpu>> listed = lib.gpus(withLinkErrors);
        List<Gpu> gpus = new ArrayList<>(listed.orElse(List.of()));
        String why = switch (listed) {
            case Reading.Present<List<Gpu>> p -> "NVML does not list this GPU (fallen off the bus, or not bound to nvidia)";
            case Reading.Absent<List<Gpu>>(String reason) -> "NVML lists no GPUs: " + reason;
            case Reading.Failed<List<Gpu>>(String path, String cause) -> "NVML lists no GPUs: " + path + ": " + cause;
        };
        Set<String> seen = gpus.stream().map(Gpu::pciAddress).collect(Collectors.toSet());
        gpus.addAll(fromPci(pci, gpus.size(), seen, Reading.absent(why)));
        return new GpuInventory(lib.system(), gpus);
    }

    /** The GPUs NVML listed when the capture was taken, then PCI GPUs it did not list. */
    private static GpuInventory fromNvmlCapture(HostRoot root, List<PciDevice> pci) {
        Reading<GpuInventory> saved = root.read(NvmlCaptureFile.FILE).optional().map(NvmlCaptureFile::parse)
                .orElse(Reading.failed(NvmlCaptureFile.FILE, "unreadable"));
        if (!(saved instanceof Reading.Present<GpuInventory>(GpuInventory inv))) {
            return new GpuInventory(saved.map(x -> null), fromPci(pci, 0, Set.of(), saved));
        }
        List<Gpu> gpus = new ArrayList<>(inv.gpus());
        Set<String> seen = gpus.stream().map(Gpu::pciAddress).collect(Collectors.toSet());
        gpus.addAll(fromPci(pci, gpus.size(), seen, Reading.absent(
                NvmlCaptureFile.FILE + " does not list this GPU (fallen off the bus, or not bound to nvidia, when it was captured)")));
        return new GpuInventory(inv.nvml(), gpus);
    }

    /**
     * The GPUs of a saved nvidia-smi -q -x, then PCI GPUs it does not list. A file that cannot be read or parsed
     * leaves every GPU listed from PCI with its readings failed with the file and the parser's message.
     */
    private static GpuInventory fromCapture(HostRoot root, List<PciDevice> pci) {
        String file = NvidiaSmiXml.CAPTURED_FILE;
        Reading<String> text = root.readText(file, HostRoot.DOCUMENT_MAX_BYTES).map(String::strip);
        if (!(text instanceof Reading.Present<String>(String xml))) {
            return new GpuInventory(text.map(x -> null), fromPci(pci, 0, Set.of(), text));
        }
        NvidiaSmiXml parsed;
        try {
            parsed = new NvidiaSmiXmlParser(file).parse(xml);
        } catch (NvidiaSmiXmlException e) {
            Reading<Void> failed = Reading.failed(file, e.getMessage());
            return new GpuInventory(failed.map(x -> null), fromPci(pci, 0, Set.of(), failed));
        }
        List<Gpu> gpus = new ArrayList<>(parsed.gpus());
        Set<String> seen = gpus.stream().map(Gpu::pciAddress).collect(Collectors.toSet());
        gpus.addAll(fromPci(pci, gpus.size(), seen, Reading.absent(
                file + " does not list this GPU (fallen off the bus, or not bound to nvidia, when it was captured)")));
        return new GpuInventory(parsed.system(), gpus);
    }

    /**
     * NVIDIA display/3D functions not already listed, numbered after the listed GPUs in PCI address order, each
     * reading but the PCIe link taking {@code why} (absent or failed, never present). Functions whose vendor or
     * class could not be read but may be NVIDIA GPUs are listed too, all readings failed: a GPU must not vanish and
     * let the next one take its number.
     */
    private static List<Gpu> fromPci(List<PciDevice> pci, int firstIndex, Set<String> listed, Reading<?> why) {
        List<Gpu> gpus = new ArrayList<>();
        // compared normalised: a capture's "0000:3B:00.0" directory is the GPU nvidia-smi lists as 00000000:3B:00.0
        Set<String> known = new java.util.HashSet<>();
        listed.forEach(a -> known.add(PciAddress.normalize(a)));
        for (PciDevice d : pci.stream().sorted(Comparator.comparing(PciDevice::address)).toList()) {
            if (!(d.isNvidiaGpu() || d.likelyNvidiaGpu()) || !known.add(PciAddress.normalize(d.address()))) continue;
            Reading<?> reason = d.isNvidiaGpu() ? why : unidentified(d);
            gpus.add(new Gpu(firstIndex + gpus.size(), d.address(), Gpu.Source.PCI_SYSFS,
                    missing(reason), missing(reason), missing(reason), missing(reason), missing(reason),
                    missing(reason), missing(reason), missing(reason), missing(reason), missing(reason),
                    missing(reason), d.isNvidiaGpu() ? d.link() : missing(reason), missing(reason), missing(reason)));
        }
        return gpus;
    }

    /** A function whose vendor or class is garbage: listed in its place, every reading failed with why. */
    private static Reading<?> unidentified(PciDevice d) {
        String first = d.unreadableIds().getFirst();
        int colon = first.indexOf(": ");
        String path = colon > 0 ? first.substring(0, colon) : first;
        return Reading.failed(path, "PCI identity unreadable, so this may be a GPU: " + String.join("; ", d.unreadableIds()));
    }

    private static <T> Reading<T> missing(Reading<?> why) {
        return switch (why) {
            case Reading.Absent<?>(String reason) -> Reading.absent(reason);
            case Reading.Failed<?>(String path, String cause) -> Reading.failed(path, cause);
            case Reading.Present<?> p -> throw new IllegalArgumentException("a present reading is no reason");
        };
    }
}
