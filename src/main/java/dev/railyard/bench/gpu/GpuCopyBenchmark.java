package dev.railyard.bench.gpu;

import dev.railyard.model.GpuCopyResult;

import dev.railyard.model.PcieLink;
import dev.railyard.nativelib.CudaEvent;
import dev.railyard.nativelib.CudaStream;
import dev.railyard.nativelib.DeviceBuffer;
import dev.railyard.nativelib.FfmCuda;
import dev.railyard.nativelib.HostBuffer;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Per-GPU host<->device and device<->device copy bandwidth, and the GPU-to-GPU peer copy matrix, timed with CUDA
 * events around {@code iters} asynchronous copies after one warm-up copy.
 */
public final class GpuCopyBenchmark {

    private final FfmCuda cuda;
    private final long bytes;
    private final int iters;

    public GpuCopyBenchmark(FfmCuda cuda, long bytes, int iters) {
        this.cuda = cuda;
        this.bytes = bytes;
        this.iters = iters;
    }

    /** {@code links}: PCIe link by lowercase bus id ("0000:18:00.0"), to say what each GPU's slot allows. */
    public GpuCopyResult.Run run(int[] devices, boolean peers, Map<String, PcieLink> links) {
        List<Buffers> buffers = new ArrayList<>();
        try {
            for (int d : devices) buffers.add(Buffers.allocate(cuda, d, bytes));
            List<GpuCopyResult> results = new ArrayList<>();
            for (Buffers b : buffers) results.add(measureOne(b, links));
            int n = devices.length;
            double[][] peer = new double[n][n];
            boolean[][] access = new boolean[n][n];
            if (peers) {
                for (int i = 0; i < n; i++) {
                    for (int j = 0; j < n; j++) {
                        if (i == j) continue;
                        access[i][j] = cuda.canAccessPeer(devices[i], devices[j]);
                        peer[i][j] = measurePeer(buffers.get(i), buffers.get(j), access[i][j]);
                    }
                }
            }
            return new GpuCopyResult.Run(bytes, iters, results, peer, access);
        } finally {
            for (Buffers b : buffers) b.free(cuda);
        }
    }

    private GpuCopyResult measureOne(Buffers b, Map<String, PcieLink> links) {
        cuda.setDevice(b.device);
        double h2d = time(b, () -> cuda.copyToDeviceAsync(b.device1, b.host, bytes, b.stream));
        double d2h = time(b, () -> cuda.copyToHostAsync(b.host, b.device1, bytes, b.stream));
        // a device-to-device copy reads and writes every byte: report bytes moved per second like bandwidthTest
        double d2d = 2 * time(b, () -> cuda.copyWithinDeviceAsync(b.device2, b.device1, bytes, b.stream));
        String bus = cuda.pciBusId(b.device);
        Optional<PcieLink> link = Optional.ofNullable(links.get(bus));
        return new GpuCopyResult(b.device, bus, h2d, d2h, d2d,
                link.map(l -> "Gen" + l.maxGen() + " x" + l.maxWidth()),
                link.map(l -> PcieBandwidth.theoreticalGBps(l.maxGen(), l.maxWidth())).filter(v -> v > 0));
    }

    private double measurePeer(Buffers src, Buffers dst, boolean direct) {
        cuda.setDevice(src.device);
        if (direct) cuda.enablePeerAccess(dst.device);
        return time(src, () -> cuda.memcpyPeerAsync(dst.device2, dst.device, src.device1, src.device, bytes, src.stream));
    }

    /** GB/s for {@code copy} repeated {@code iters} times on the buffers' stream. */
    private double time(Buffers b, Runnable copy) {
        copy.run();
        cuda.streamSynchronize(b.stream);
        cuda.eventRecord(b.start, b.stream);
        for (int i = 0; i < iters; i++) copy.run();
        cuda.eventRecord(b.end, b.stream);
        cuda.eventSynchronize(b.end);
        double seconds = cuda.elapsedMs(b.start, b.end) / 1e3;
        return (double) bytes * iters / seconds / 1e9;
    }

    /** Pinned host buffer, two device buffers, a stream and two events for one GPU. */
    private record Buffers(int device, HostBuffer host, DeviceBuffer device1, DeviceBuffer device2,
                           CudaStream stream, CudaEvent start, CudaEvent end) {

        static Buffers allocate(FfmCuda cuda, int device, long bytes) {
            cuda.setDevice(device);
            return new Buffers(device, cuda.mallocHost(bytes), cuda.malloc(bytes), cuda.malloc(bytes),
                    cuda.streamCreate(), cuda.eventCreate(), cuda.eventCreate());
        }

        void free(FfmCuda cuda) {
            cuda.setDevice(device);
            cuda.freeHost(host);
            cuda.free(device1);
            cuda.free(device2);
            cuda.eventDestroy(start);
            cuda.eventDestroy(end);
        }
    }
}
