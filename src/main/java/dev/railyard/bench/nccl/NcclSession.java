package dev.railyard.bench.nccl;

import dev.railyard.model.RailyardException;
import dev.railyard.nativelib.CudaLibraries;
import dev.railyard.nativelib.FfmCuda;
import dev.railyard.nativelib.FfmNccl;
import dev.railyard.nativelib.NcclComm;
import dev.railyard.platform.Timings;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Loads libcudart and libnccl, sets up communicators, streams, buffers and events, and frees them at the end. */
public final class NcclSession implements AutoCloseable {

    private final FfmCuda cuda;
    private final FfmNccl nccl;
    private final List<NcclRank> ranks = new ArrayList<>();
    private Timings timings = Timings.off();

    private NcclSession(FfmCuda cuda, FfmNccl nccl) {
        this.cuda = cuda;
        this.nccl = nccl;
    }

    /** Both libraries, found by {@link CudaLibraries} ($RAILYARD_CUDART, $RAILYARD_NCCL, then the usual names). */
    public static NcclSession open() {
        return new NcclSession(CudaLibraries.cudart(), CudaLibraries.nccl());
    }

    /** As {@link #open()}, with the names (or paths) to try for each library given. */
    public static NcclSession open(List<String> cudartCandidates, List<String> ncclCandidates) {
        return new NcclSession(CudaLibraries.cudart(cudartCandidates), CudaLibraries.nccl(ncclCandidates));
    }

    /** Records set-up and tear-down as phases of {@code t} (--timings). */
    public NcclSession timed(Timings t) {
        this.timings = t;
        return this;
    }

    public FfmCuda cuda() {
        return cuda;
    }

    public FfmNccl nccl() {
        return nccl;
    }

    public List<NcclRank> ranks() {
        return List.copyOf(ranks);
    }

    /** One process driving every listed device (ncclCommInitAll). */
    public void initAll(int[] devices, long bufferBytes) {
        int available = cuda.deviceCount();
        for (int d : devices) {
            if (d < 0 || d >= available) {
                throw new RailyardException.Usage("GPU " + d + " does not exist (this node has " + available + ")",
                        "use -g N with N <= " + available);
            }
        }
        timings.time("CUDA context and free memory of each GPU", () -> {
            for (int d : devices) requireRoom(d, bufferBytes);
        });
        NcclComm[] comms = timings.time("NCCL communicators (ncclCommInitAll)", () -> nccl.commInitAll(devices));
        timings.time("buffers, streams, events (cudaMalloc)", () -> {
            for (int i = 0; i < devices.length; i++) ranks.add(allocate(i, devices[i], comms[i], bufferBytes));
        });
    }

    /** This process is {@code rank} of {@code nranks} and drives {@code device}. */
    public void initRank(int rank, int nranks, byte[] uniqueId, int device, long bufferBytes) {
        timings.time("CUDA context and free memory of the GPU", () -> requireRoom(device, bufferBytes));
        cuda.setDevice(device);
        NcclComm comm = timings.time("NCCL communicator (ncclCommInitRank)", () -> nccl.commInitRank(nranks, uniqueId, rank));
        timings.time("buffers, streams, events (cudaMalloc)", () -> ranks.add(allocate(rank, device, comm, bufferBytes)));
    }

    /**
     * Refuses a size whose two buffers (send and receive) do not fit in the GPU's free memory with room for NCCL's
     * own (about {@value #NCCL_RESERVE_MIB} MiB of channels and proxies), before anything is allocated: cudaMalloc
     * would fail halfway through set-up, or worse succeed and leave NCCL to fail.
     */
    private void requireRoom(int device, long bufferBytes) {
        cuda.setDevice(device);
        FfmCuda.MemoryInfo mem = cuda.memoryInfo();
        long reserve = NCCL_RESERVE_MIB << 20;
        long needed = 2 * bufferBytes + reserve;
        if (needed <= mem.freeBytes()) return;
        long fits = Math.max(0, (mem.freeBytes() - reserve) / 2 - BUFFER_SLACK);
        throw new RailyardException.Usage(String.format(Locale.ROOT,
                "the largest size needs %s on GPU %d (two buffers of %s and %d MiB for NCCL), which has %s free",
                Sizes.text(needed), device, Sizes.text(bufferBytes), NCCL_RESERVE_MIB, Sizes.text(mem.freeBytes())),
                fits < 8 ? "free the GPU first: nvidia-smi shows what runs on it"
                        : "the largest size that fits is -e " + Sizes.option(fits));
    }

    /** Bytes each buffer holds beyond the largest message (alignment room for in-place offsets). */
    public static final long BUFFER_SLACK = 64;

    private static final long NCCL_RESERVE_MIB = 1024;

    private NcclRank allocate(int rank, int device, NcclComm comm, long bytes) {
        cuda.setDevice(device);
        return new NcclRank(rank, device, cuda.pciBusId(device), comm, cuda.streamCreate(), cuda.malloc(bytes),
                cuda.malloc(bytes), cuda.eventCreate(), cuda.eventCreate());
    }

    @Override
    public void close() {
        long closing = System.nanoTime();
        for (NcclRank r : ranks) {
            cuda.setDevice(r.device());
            cuda.streamSynchronize(r.stream());
            nccl.commDestroy(r.comm());
            cuda.free(r.send());
            cuda.free(r.recv());
            cuda.eventDestroy(r.start());
            cuda.eventDestroy(r.end());
        }
        if (!ranks.isEmpty()) timings.record("tear-down (ncclCommDestroy, cudaFree)", closing);
        ranks.clear();
    }
}
