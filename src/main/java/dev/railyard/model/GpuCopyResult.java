package dev.railyard.model;

import java.util.List;
import java.util.Optional;

/**
 * Copy bandwidths of one GPU in GB/s (10^9 bytes/s): host-to-device and device-to-host from pinned memory, and a
 * copy within the GPU's own memory. {@code pcieMaxGBps} is what the link's maximum generation and width allow
 * (absent when the link was not known).
 */
public record GpuCopyResult(int device, String pciBusId, double h2dGBps, double d2hGBps, double d2dGBps,
                            Optional<String> pcieMaxLink, Optional<Double> pcieMaxGBps) {

    /** The whole run: per-GPU copies and the peer matrix (GB/s from row GPU to column GPU; 0 on the diagonal). */
    public record Run(long bytes, int iters, List<GpuCopyResult> gpus, double[][] peerGBps, boolean[][] peerAccess) {
        public Run {
            gpus = List.copyOf(gpus);
        }
    }
}
