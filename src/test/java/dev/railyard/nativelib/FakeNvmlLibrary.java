package dev.railyard.nativelib;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;
import java.util.List;

import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * src/test/c/fake_nvml.c built into a libnvidia-ml.so.1 with gcc, plus handles to its test controls. The test keeps
 * its own lookup open, so the library stays loaded (and its state kept) while FfmNvml sessions come and go.
 */
// Restricted FFM calls are this package's purpose; the jar and surefire enable native access.
@SuppressWarnings("restricted")
public final class FakeNvmlLibrary implements AutoCloseable {

    private final Path path;
    private final Arena arena = Arena.ofShared();
    private final MethodHandle setInitResult;
    private final MethodHandle setLostGpu;
    private final MethodHandle refcount;
    private final MethodHandle setGpu0Dbe;
    private final MethodHandle holdShutdown;
    private final MethodHandle advanceSeconds;
    private final MethodHandle gpmSamplesLive;
    private final MethodHandle setClockEvents;
    private final MethodHandle setUncorrectedEcc;
    private final MethodHandle calls;
    private final MethodHandle resetCalls;

    private FakeNvmlLibrary(Path path) {
        this.path = path;
        SymbolLookup lookup = SymbolLookup.libraryLookup(path, arena);
        Linker linker = Linker.nativeLinker();
        setInitResult = linker.downcallHandle(lookup.findOrThrow("fake_nvml_set_init_result"),
                FunctionDescriptor.ofVoid(JAVA_INT));
        setLostGpu = linker.downcallHandle(lookup.findOrThrow("fake_nvml_set_lost_gpu"),
                FunctionDescriptor.ofVoid(JAVA_INT));
        refcount = linker.downcallHandle(lookup.findOrThrow("fake_nvml_refcount"), FunctionDescriptor.of(JAVA_INT));
        holdShutdown = linker.downcallHandle(lookup.findOrThrow("fake_nvml_hold_shutdown"),
                FunctionDescriptor.ofVoid(JAVA_INT));
        advanceSeconds = linker.downcallHandle(lookup.findOrThrow("fake_nvml_advance_seconds"),
                FunctionDescriptor.ofVoid(JAVA_INT));
        gpmSamplesLive = linker.downcallHandle(lookup.findOrThrow("fake_nvml_gpm_samples_live"), FunctionDescriptor.of(JAVA_INT));
        setClockEvents = linker.downcallHandle(lookup.findOrThrow("fake_nvml_set_clock_events"),
                FunctionDescriptor.ofVoid(JAVA_INT, java.lang.foreign.ValueLayout.JAVA_LONG));
        setUncorrectedEcc = linker.downcallHandle(lookup.findOrThrow("fake_nvml_set_uncorrected_ecc"),
                FunctionDescriptor.ofVoid(JAVA_INT, java.lang.foreign.ValueLayout.JAVA_LONG));
        calls = linker.downcallHandle(lookup.findOrThrow("fake_nvml_calls"),
                FunctionDescriptor.of(java.lang.foreign.ValueLayout.JAVA_LONG, java.lang.foreign.ValueLayout.ADDRESS));
        resetCalls = linker.downcallHandle(lookup.findOrThrow("fake_nvml_reset_calls"), FunctionDescriptor.ofVoid());
        setGpu0Dbe = linker.downcallHandle(lookup.findOrThrow("fake_nvml_set_gpu0_dbe"),
                FunctionDescriptor.ofVoid(java.lang.foreign.ValueLayout.JAVA_LONG));
    }

    /** Builds the fake into dir/libnvidia-ml.so.1; skips the calling test when there is no gcc. */
    public static FakeNvmlLibrary build(Path dir, String... defines) throws IOException, InterruptedException {
        return new FakeNvmlLibrary(FakeLibraryBuild.sharedLibrary(dir.resolve("libnvidia-ml.so.1"), List.of(defines),
                "fake_nvml.c"));
    }

    public Path path() {
        return path;
    }

    /** What the fake's nvmlInit_v2 returns from now on (0 = NVML_SUCCESS). */
    public void setInitResult(int nvmlReturn) throws Throwable {
        setInitResult.invokeExact(nvmlReturn);
    }

    /** Adds a third GPU whose handle answers NVML_ERROR_GPU_IS_LOST. */
    public void setLostGpu(boolean on) throws Throwable {
        setLostGpu.invokeExact(on ? 1 : 0);
    }

    /** nvmlInit_v2 calls not yet matched by nvmlShutdown. */
    public int refcount() throws Throwable {
        return (int) refcount.invokeExact();
    }

    /** Volatile and aggregate uncorrected (double-bit) ECC errors GPU 0 reports from now on. */
    public void setGpu0UncorrectedEcc(long count) throws Throwable {
        setGpu0Dbe.invokeExact(count);
    }

    /** Moves the field values' clock and counters on (see fake_nvml.c): the next read sees n seconds of traffic. */
    public void advanceSeconds(int n) throws Throwable {
        advanceSeconds.invokeExact(n);
    }

    /** GPM sample buffers nvmlGpmSampleAlloc gave out and nvmlGpmSampleFree has not taken back. */
    public int gpmSamplesLive() throws Throwable {
        return (int) gpmSamplesLive.invokeExact();
    }

    /** GPU {@code gpu}'s clock-event reasons from now on (NVML's bit mask; -1: the fake's own answer). */
    public void setClockEvents(int gpu, long mask) throws Throwable {
        setClockEvents.invokeExact(gpu, mask);
    }

    /** Uncorrected ECC errors added to GPU {@code gpu}'s counts from now on. */
    public void setUncorrectedEcc(int gpu, long count) throws Throwable {
        setUncorrectedEcc.invokeExact(gpu, count);
    }

    /** Calls of the NVML function {@code name} since {@link #resetCalls()}. */
    public long calls(String name) throws Throwable {
        try (Arena a = Arena.ofConfined()) {
            return (long) calls.invokeExact(a.allocateFrom(name));
        }
    }

    /** Calls of every NVML function since {@link #resetCalls()}. */
    public long calls() throws Throwable {
        return (long) calls.invokeExact(java.lang.foreign.MemorySegment.NULL);
    }

    /** Starts every function's count of calls from zero. */
    public void resetCalls() throws Throwable {
        resetCalls.invokeExact();
    }

    /** While held, nvmlShutdown waits (polling each millisecond) until released. */
    public void holdShutdown(boolean on) throws Throwable {
        holdShutdown.invokeExact(on ? 1 : 0);
    }

    @Override
    public void close() {
        arena.close();
    }
}
