package dev.railyard.model;

import java.util.List;
import java.util.Map;

/** OS, kernel and the tuning knobs the seeds set by hand. */
public record HostInfo(
        Reading<String> os,
        Reading<String> kernel,
        Reading<MemlockLimit> memlock,
        Reading<Long> rmemMax,
        Reading<Long> wmemMax,
        Reading<Map<String, Integer>> cpuGovernors,
        Reading<Map<String, Boolean>> modules,
        List<NvmeDevice> nvme) {

    /** Kernel modules the checks care about; {@link #modules} says which of these are loaded. */
    public static final List<String> WATCHED_MODULES =
            List.of("nvidia", "nvidia_peermem", "nv_peer_mem", "mlx4_ib", "mlx5_ib", "ib_ipoib", "rdma_rxe", "ib_umad", "rdma_ucm");

    public HostInfo {
        nvme = List.copyOf(nvme);
    }

    /** RLIMIT_MEMLOCK soft limit; bytes is -1 when unlimited. */
    public record MemlockLimit(boolean unlimited, long bytes) {}

    public record NvmeDevice(String name, Reading<String> model, Reading<String> serial, Reading<String> firmware,
                             Reading<String> transport, Reading<String> pciAddress, Reading<Long> sizeBytes) {}
}
