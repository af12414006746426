package dev.railyard.bench.nccl;

import dev.railyard.model.RailyardException;
import dev.railyard.nativelib.FfmCuda;
import dev.railyard.nativelib.FfmNccl;
import dev.railyard.nativelib.NativeLibrary;

import java.lang.foreign.MemorySegment;
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

    /**
     * Both libraries, or a prerequisite error naming what is missing and how to get it. $RAILYARD_CUDART and
     * $RAILYARD_NCCL, when set, name the library file to use instead of searching the usual names (a build of NCCL
     * under test, or the test suite's fakes); a named file that does not load is an error, not a fall-back, so a run
     * never measures a different library than the one asked for.
     */
    public static NcclSession open() {
        return open(librariesFrom("RAILYARD_CUDART", FfmCuda.CANDIDATES),
                librariesFrom("RAILYARD_NCCL", FfmNccl.CANDIDATES));
    }

    private static List<String> librariesFrom(String variable, List<String> defaults) {
        String path = System.getenv(variable);
        return path == null || path.isBlank() ? defaults : List.of(path);
    }

    /** As {@link #open()}, with the names (or paths) to try for each library given. */
    public static NcclSession open(List<String> cudartCandidates, List<String> ncclCandidates) {
        FfmCuda cuda = switch (NativeLibrary.open(cudartCandidates)) {
            case NativeLibrary.Loaded.Ok ok -> new FfmCuda(ok.library());
            case NativeLibrary.Loaded.Unavailable u -> throw new RailyardException.MissingPrerequisite(
                    "the CUDA runtime (libcudart) could not be loaded: " + u.reason(),
                    "install the CUDA toolkit runtime (Debian/Ubuntu: cuda-cudart-13-0; RHEL: cuda-cudart-13-0), add its lib64 to LD_LIBRARY_PATH, or name the file in RAILYARD_CUDART");
        };
        FfmNccl nccl = switch (NativeLibrary.open(ncclCandidates)) {
            case NativeLibrary.Loaded.Ok ok -> new FfmNccl(ok.library());
            case NativeLibrary.Loaded.Unavailable u -> throw new RailyardException.MissingPrerequisite(
                    "NCCL (libnccl.so.2) could not be loaded: " + u.reason(),
                    "install NCCL (Debian/Ubuntu: libnccl2; RHEL: libnccl) from NVIDIA's CUDA repository, or name the file in RAILYARD_NCCL");
        };
        return new NcclSession(cuda, nccl);
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
        MemorySegment[] comms = nccl.commInitAll(devices);
        for (int i = 0; i < devices.length; i++) ranks.add(allocate(i, devices[i], comms[i], bufferBytes));
    }

    /** This process is {@code rank} of {@code nranks} and drives {@code device}. */
    public void initRank(int rank, int nranks, byte[] uniqueId, int device, long bufferBytes) {
        cuda.setDevice(device);
        MemorySegment comm = nccl.commInitRank(nranks, uniqueId, rank);
        ranks.add(allocate(rank, device, comm, bufferBytes));
    }

    private NcclRank allocate(int rank, int device, MemorySegment comm, long bytes) {
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
