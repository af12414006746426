package dev.railyard.collect;

import dev.railyard.model.Gpu;
import dev.railyard.model.GpuInventory;
import dev.railyard.model.PciDevice;
import dev.railyard.model.Reading;
import dev.railyard.nativelib.FfmNvml;
import dev.railyard.nativelib.NvmlLoad;
import dev.railyard.platform.HostRoot;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * GPUs through NVML on a live node; from PCI sysfs (vendor 0x10de) when NVML is unavailable or on a captured tree.
 * A GPU on the PCI bus that NVML does not list (fallen off the bus, driver not bound) is still reported, from PCI.
 */
public final class GpuCollector {

    private final Supplier<NvmlLoad> nvml;

    private GpuCollector(Supplier<NvmlLoad> nvml) {
        this.nvml = nvml;
    }

    /** NVML on a live root; PCI sysfs only on a captured tree, whose GPUs the local library knows nothing of. */
    public static GpuCollector forRoot(HostRoot root) {
        if (root.isLive()) return new GpuCollector(FfmNvml::open);
        return new GpuCollector(() -> new NvmlLoad.Unavailable("captured tree " + root + " (NVML is only asked on the live node)"));
    }

    /** A collector over a given NVML, such as a test's fake library. */
    public static GpuCollector withNvml(Supplier<NvmlLoad> nvml) {
        return new GpuCollector(nvml);
    }

    public GpuInventory collect(HostRoot root, List<PciDevice> pci) {
        return switch (nvml.get()) {
            case NvmlLoad.Ready(FfmNvml lib) -> {
                try (lib) {
                    yield fromNvml(lib, pci);
                }
            }
            case NvmlLoad.Unavailable(String reason) ->
                    new GpuInventory(Reading.absent("NVML unavailable: " + reason), fromPci(pci, 0, Set.of(),
                            "NVML unavailable: " + reason));
        };
    }

    private static GpuInventory fromNvml(FfmNvml lib, List<PciDevice> pci) {
        Reading<List<Gpu>> listed = lib.gpus();
        List<Gpu> gpus = new ArrayList<>(listed.orElse(List.of()));
        String why = switch (listed) {
            case Reading.Present<List<Gpu>> p -> "NVML does not list this GPU (fallen off the bus, or not bound to nvidia)";
            case Reading.Absent<List<Gpu>>(String reason) -> "NVML lists no GPUs: " + reason;
            case Reading.Failed<List<Gpu>>(String path, String cause) -> "NVML lists no GPUs: " + path + ": " + cause;
        };
        Set<String> seen = gpus.stream().map(Gpu::pciAddress).collect(Collectors.toSet());
        gpus.addAll(fromPci(pci, gpus.size(), seen, why));
        return new GpuInventory(lib.system(), gpus);
    }

    /** NVIDIA display/3D functions not already listed, numbered after the NVML GPUs in PCI address order. */
    private static List<Gpu> fromPci(List<PciDevice> pci, int firstIndex, Set<String> listed, String reason) {
        List<Gpu> gpus = new ArrayList<>();
        for (PciDevice d : pci.stream().sorted(Comparator.comparing(PciDevice::address)).toList()) {
            if (!d.isNvidiaGpu() || listed.contains(d.address())) continue;
            gpus.add(new Gpu(firstIndex + gpus.size(), d.address(), Gpu.Source.PCI_SYSFS,
                    Reading.absent(reason), Reading.absent(reason), Reading.absent(reason), Reading.absent(reason),
                    Reading.absent(reason), Reading.absent(reason), Reading.absent(reason), Reading.absent(reason),
                    Reading.absent(reason), Reading.absent(reason), Reading.absent(reason), d.link(),
                    Reading.absent(reason), Reading.absent(reason)));
        }
        return gpus;
    }
}
