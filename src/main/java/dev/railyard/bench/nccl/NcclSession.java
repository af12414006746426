package dev.railyard.bench.nccl;

import dev.railyard.model.RailyardException;
import dev.railyard.nativelib.CudaLibraries;
import dev.railyard.nativelib.FfmCuda;
import dev.railyard.nativelib.FfmNccl;
import dev.railyard.nativelib.NcclComm;
import java.util.ArrayList;
import java.util.List;

/** Loads libcudart and libnccl, sets up communicators, streams, buffers and events, and frees them at the end. */
public final class NcclSession implements AutoCloseable {

    private final FfmCuda cuda;
    private final FfmNccl nccl;
    private final List<NcclRank> ranks = new ArrayList<>();

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
        NcclComm[] comms = nccl.commInitAll(devices);
        for (int i = 0; i < devices.length; i++) ranks.add(allocate(i, devices[i], comms[i], bufferBytes));
    }

    /** This process is {@code rank} of {@code nranks} and drives {@code device}. */
    public void initRank(int rank, int nranks, byte[] uniqueId, int device, long bufferBytes) {
        cuda.setDevice(device);
        NcclComm comm = nccl.commInitRank(nranks, uniqueId, rank);
        ranks.add(allocate(rank, device, comm, bufferBytes));
    }

    private NcclRank allocate(int rank, int device, NcclComm comm, long bytes) {
        cuda.setDevice(device);
        return new NcclRank(rank, device, cuda.pciBusId(device), comm, cuda.streamCreate(), cuda.malloc(bytes),
                cuda.malloc(bytes), cuda.eventCreate(), cuda.eventCreate());
    }

    @Override
    public void close() {
        for (NcclRank r : ranks) {
            cuda.setDevice(r.device());
            cuda.streamSynchronize(r.stream());
            nccl.commDestroy(r.comm());
            cuda.free(r.send());
            cuda.free(r.recv());
            cuda.eventDestroy(r.start());
            cuda.eventDestroy(r.end());
        }
        ranks.clear();
    }
}
