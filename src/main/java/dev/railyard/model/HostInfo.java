package dev.railyard.model;

import java.util.List;
import java.util.Map;

/** OS, kernel, the tuning knobs clusters set by hand, and the NCCL library the loader finds. */
public record HostInfo(
        Reading<String> os,
        Reading<String> kernel,
        Reading<MemlockLimit> memlock,
        Reading<Long> rmemMax,
        Reading<Long> wmemMax,
        Reading<Map<String, Integer>> cpuGovernors,
        Reading<Map<String, Boolean>> modules,
        List<NvmeDevice> nvme,
        Reading<String> ncclVersion) {

    /** Kernel modules the checks care about; {@link #modules} says which of these are loaded. */
    public static final List<String> WATCHED_MODULES =
            List.of("nvidia", "nvidia_peermem", "nv_peer_mem", "mlx4_ib", "mlx5_ib", "ib_ipoib", "rdma_rxe", "ib_umad", "rdma_ucm");

    public HostInfo {
        nvme = List.copyOf(nvme);
        if (ncclVersion == null) ncclVersion = Reading.absent("not in this capture (written by an older Railyard)");
    }

    /** Host facts from a source that does not look for NCCL (a paste, a failed host read). */
    public HostInfo(Reading<String> os, Reading<String> kernel, Reading<MemlockLimit> memlock, Reading<Long> rmemMax,
                    Reading<Long> wmemMax, Reading<Map<String, Integer>> cpuGovernors,
                    Reading<Map<String, Boolean>> modules, List<NvmeDevice> nvme) {
        this(os, kernel, memlock, rmemMax, wmemMax, cpuGovernors, modules, nvme,
                Reading.absent("NCCL's library was not looked for"));
    }

    /** RLIMIT_MEMLOCK soft limit; bytes is -1 when unlimited. */
    public record MemlockLimit(boolean unlimited, long bytes) {}

    public record NvmeDevice(String name, Reading<String> model, Reading<String> serial, Reading<String> firmware,
                             Reading<String> transport, Reading<String> pciAddress, Reading<Long> sizeBytes) {}
}
