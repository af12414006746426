package dev.railyard.model;

import java.util.List;

/** The node's GPUs plus the driver-wide facts NVML reports once (driver and CUDA versions). */
public record GpuInventory(Reading<NvmlSystem> nvml, List<Gpu> gpus) {

    public GpuInventory {
        gpus = List.copyOf(gpus);
    }

    /** Driver-wide facts from NVML. */
    public record NvmlSystem(String driverVersion, String cudaVersion, String nvmlVersion) {}
}
