package dev.railyard.nativelib;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;
import java.util.List;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * src/test/c/fake_cudart.c and fake_nccl.c built with gcc into dir/libcudart.so.13 and dir/libnccl.so.2, plus handles
 * to their test controls. Each build is a new file, so a test class that builds its own gets fresh library state; the
 * libraries stay loaded for the rest of the JVM (NativeLibrary opens them in the global arena).
 */
// Restricted FFM calls are this package's purpose; the jar and surefire enable native access.
@SuppressWarnings("restricted")
public final class FakeCudaLibraries {

    private final Path cudart;
    private final Path nccl;
    private final Path cublasLt;
    private final MethodHandle setMemory, setBus, setCapability, setTflops, setWrongElement;
    private final MethodHandle setDevices;
    private final MethodHandle cudaTrace;
    private final MethodHandle ncclTrace;
    private final MethodHandle setWrong;
    private final MethodHandle failAfter;
    private final MethodHandle ncclReset;

    private FakeCudaLibraries(Path cudart, Path nccl, Path cublasLt) {
        this.cudart = cudart;
        this.nccl = nccl;
        this.cublasLt = cublasLt;
        Linker linker = Linker.nativeLinker();
        SymbolLookup c = SymbolLookup.libraryLookup(cudart, Arena.global());
        SymbolLookup n = SymbolLookup.libraryLookup(nccl, Arena.global());
        SymbolLookup lt = SymbolLookup.libraryLookup(cublasLt, Arena.global());
        setMemory = linker.downcallHandle(c.findOrThrow("fake_cuda_set_memory"), FunctionDescriptor.ofVoid(JAVA_LONG));
        setBus = linker.downcallHandle(c.findOrThrow("fake_cuda_set_bus"), FunctionDescriptor.ofVoid(JAVA_INT, JAVA_INT));
        setCapability = linker.downcallHandle(c.findOrThrow("fake_cuda_set_capability"),
                FunctionDescriptor.ofVoid(JAVA_INT));
        setTflops = linker.downcallHandle(lt.findOrThrow("fake_cublas_set_tflops"),
                FunctionDescriptor.ofVoid(JAVA_INT, java.lang.foreign.ValueLayout.JAVA_DOUBLE));
        setWrongElement = linker.downcallHandle(lt.findOrThrow("fake_cublas_set_wrong"),
                FunctionDescriptor.ofVoid(JAVA_INT, JAVA_LONG));
        setDevices = linker.downcallHandle(c.findOrThrow("fake_cuda_set_devices"), FunctionDescriptor.ofVoid(JAVA_INT));
        cudaTrace = linker.downcallHandle(c.findOrThrow("fake_cuda_trace"), FunctionDescriptor.ofVoid(ADDRESS));
        ncclTrace = linker.downcallHandle(n.findOrThrow("fake_nccl_trace"), FunctionDescriptor.ofVoid(ADDRESS));
        setWrong = linker.downcallHandle(n.findOrThrow("fake_nccl_set_wrong"), FunctionDescriptor.ofVoid(ADDRESS));
        failAfter = linker.downcallHandle(n.findOrThrow("fake_nccl_fail_after"), FunctionDescriptor.ofVoid(JAVA_LONG));
        ncclReset = linker.downcallHandle(n.findOrThrow("fake_nccl_reset"), FunctionDescriptor.ofVoid());
    }

    /** Builds the three fakes into dir; skips the calling test when there is no gcc. */
    public static FakeCudaLibraries build(Path dir) throws IOException, InterruptedException {
        Path cudart = FakeLibraryBuild.sharedLibrary(dir.resolve("libcudart.so.13"), List.of(), "fake_cudart.c");
        Path nccl = FakeLibraryBuild.sharedLibrary(dir.resolve("libnccl.so.2"), List.of(), "fake_nccl.c",
                "fake_nccl_reduce.c");
        Path cublasLt = FakeLibraryBuild.sharedLibrary(dir.resolve("libcublasLt.so.13"), List.of(), "fake_cublaslt.c");
        return new FakeCudaLibraries(cudart, nccl, cublasLt);
    }

    public Path cublasLt() {
        return cublasLt;
    }

    /** What cudaMemGetInfo says is free on every device, and the largest cudaMalloc that succeeds. */
    public void setMemory(long bytes) throws Throwable {
        setMemory.invokeExact(bytes);
    }

    /** Device d's PCI bus is first + d x stride. */
    public void setBus(int first, int stride) throws Throwable {
        setBus.invokeExact(first, stride);
    }

    /** Compute capability x 10 of every device (90: an H100). */
    public void setCapability(int cc) throws Throwable {
        setCapability.invokeExact(cc);
    }

    /** How fast device d multiplies, as its CUDA events time it. */
    public void setTflops(int device, double tflops) throws Throwable {
        setTflops.invokeExact(device, tflops);
    }

    /** Every result device d computes has 1 added to {@code element} (-1: none). */
    public void setWrongElement(int device, long element) throws Throwable {
        setWrongElement.invokeExact(device, element);
    }

    public Path cudart() {
        return cudart;
    }

    public Path nccl() {
        return nccl;
    }

    /** What cudaGetDeviceCount answers from now on. */
    public void setDevices(int n) throws Throwable {
        setDevices.invokeExact(n);
    }

    /** Both fakes append one line per call to {@code file} from now on (null: stop tracing). */
    public void trace(Path file) throws Throwable {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment path = file == null ? MemorySegment.NULL : a.allocateFrom(file.toString());
            cudaTrace.invokeExact(path);
            ncclTrace.invokeExact(path);
        }
    }

    /** Every group that runs the NCCL function {@code fn} (e.g. "ncclAllReduce") writes one wrong element; "" for none. */
    public void setWrong(String fn) throws Throwable {
        try (Arena a = Arena.ofConfined()) {
            setWrong.invokeExact(a.allocateFrom(fn));
        }
    }

    /** Every NCCL launch after the next {@code launches} fails with ncclUnhandledCudaError; -1 turns this off. */
    public void failAfter(long launches) throws Throwable {
        failAfter.invokeExact(launches);
    }

    /** Back to 2 devices, no trace, no wrong element, no failure, no open group. */
    public void reset() throws Throwable {
        ncclReset.invokeExact();
        trace(null);
        setDevices(2);
    }
}
