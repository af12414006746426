package dev.railyard.nativelib;

import dev.railyard.model.Gpu;
import dev.railyard.model.GpuInventory.NvmlSystem;
import dev.railyard.model.Reading;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadFactory;

import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * NVML through the FFM API: loads libnvidia-ml, initialises it, and reads the system and every GPU. A host
 * without the driver gets {@link NvmlLoad.Unavailable} with the reason, never an exception or a crash.
 * Only read-only queries are made (see {@link NvmlSymbol}).
 */
// Restricted FFM calls are this package's purpose; the jar and surefire enable native access.
@SuppressWarnings("restricted")
public final class FfmNvml implements AutoCloseable {

    /** The soname the driver installs; looked up through the dynamic loader's path, as nvidia-smi does. */
    public static final String LIBRARY = "libnvidia-ml.so.1";

    /** Where the rehearsal of the reads runs, beside nvmlInit_v2: a daemon, so it never holds up the JVM's exit. */
    private static final ThreadFactory REHEARSALS =
            Thread.ofPlatform().daemon().name("railyard-nvml-rehearsal").factory();

    private final Arena library;
    private final NvmlFunctions functions;
    private boolean closed;
    /** PCIe byte counters of the last read, for the traffic rates of the next (the agent keeps one session). */
    private final CounterRates rates = new CounterRates();
    /** GPM sample buffers of the last read, for the profiling ratios of the next. */
    private final NvmlGpm gpm;

    private FfmNvml(Arena library, NvmlFunctions functions) {
        this.library = library;
        this.functions = functions;
        this.gpm = new NvmlGpm(functions);
    }

    /** The driver's NVML, found by the loader (LD_LIBRARY_PATH, ld.so.cache). */
    public static NvmlLoad open() {
        return open(LIBRARY, NvmlFunctions.exactDescriptorsByDefault(), REHEARSALS);
    }

    /** NVML from an explicit file: tests load a fake built from src/test/c/fake_nvml.c. */
    public static NvmlLoad open(Path library) {
        return open(library, NvmlFunctions.exactDescriptorsByDefault());
    }

    /** As {@link #open(Path)}, each function bound with its own descriptor or all through one shape (tests do both). */
    static NvmlLoad open(Path library, boolean exactDescriptors) {
        return open(library, exactDescriptors, REHEARSALS);
    }

    /** As {@link #open(Path, boolean)} with the rehearsal on a thread of {@code rehearsals} (a test's, slowed down). */
    static NvmlLoad open(Path library, boolean exactDescriptors, ThreadFactory rehearsals) {
        return open(library.toAbsolutePath().toString(), exactDescriptors, rehearsals);
    }

    private static NvmlLoad open(String nameOrPath, boolean exactDescriptors, ThreadFactory rehearsals) {
        // Shared, not confined: the library lives as long as the session, which a caller may hand to another thread.
        Arena arena = Arena.ofShared();
        SymbolLookup lookup;
        try {
            lookup = SymbolLookup.libraryLookup(nameOrPath, arena);
        } catch (IllegalArgumentException | IllegalCallerException e) {
            arena.close();
            return new NvmlLoad.Unavailable("cannot load " + nameOrPath + ": " + e.getMessage());
        }
        NvmlFunctions functions = NvmlFunctions.bind(lookup, exactDescriptors);
        if (!functions.has(NvmlSymbol.INIT_V2)) {
            arena.close();
            return new NvmlLoad.Unavailable(nameOrPath + " has no nvmlInit_v2");
        }
        Thread rehearsal = rehearseReadsBeside(functions, rehearsals);
        int rc;
        try {
            rc = functions.call(NvmlSymbol.INIT_V2);
        } finally {
            awaitUninterruptibly(rehearsal);
        }
        if (rc != NvmlError.SUCCESS) {
            String text = functions.errorString(rc);
            arena.close();
            return new NvmlLoad.Unavailable("nvmlInit_v2 failed: " + text);
        }
        return new NvmlLoad.Ready(new FfmNvml(arena, functions));
    }

    /**
     * Rehearses the reads ({@link NvmlFunctions#rehearsal()}) on another thread while this one goes on into
     * nvmlInit_v2, which waits in the driver: on one GPU that wait is longer than the rehearsal, and the real reads
     * after it then run without first-use costs (1 x H100: inventory 141 -> 134 ms median, docs/benchmarks.md). The
     * rehearsal's result is thrown away. Then nvmlErrorString's handle is built, for the first read that fails.
     *
     * <p>{@link #open} waits for it before it goes on, so no rehearsal outlives the call that started it: when a
     * library's arena is closed (an init failure, a quick session), nothing else is running on its functions. On a
     * GPU the wait costs nothing measurable (1 x H200: 134 ms median with it, 137 without). A build that let
     * it run on had a CI test JVM abort in the fake NVML's tests, where init fails at once and the arena was closed
     * while the rehearsal still ran (the CI log kept no crash report, so that overlap is the suspect, not a proven
     * cause).
     */
    private static Thread rehearseReadsBeside(NvmlFunctions functions, ThreadFactory rehearsals) {
        NvmlFunctions rehearsal = functions.rehearsal();
        Thread t = rehearsals.newThread(() -> {
            try {
                new NvmlDeviceReader(rehearsal, false, new CounterRates(), new NvmlGpm(rehearsal)).read(0);
                system(rehearsal);
                functions.prepareErrorString();
            } catch (RuntimeException e) {
                // only a warm-up: whatever went wrong here goes wrong again in the real read, which reports it
            }
        });
        t.start();
        return t;
    }

    /** The rehearsal is a few milliseconds of CPU work; an interrupt is kept for the caller, not acted on here. */
    private static void awaitUninterruptibly(Thread rehearsal) {
        boolean interrupted = false;
        while (true) {
            try {
                rehearsal.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) Thread.currentThread().interrupt();
    }

    /** The function table (tests look at what it has prepared). */
    NvmlFunctions functions() {
        return functions;
    }

    /** Driver, CUDA driver and NVML versions; failed only when the driver version itself cannot be read. */
    public Reading<NvmlSystem> system() {
        return system(functions);
    }

    private static Reading<NvmlSystem> system(NvmlFunctions functions) {
        try (Arena arena = Arena.ofConfined()) {
            Reading<String> driver = versionString(functions, arena, NvmlSymbol.SYSTEM_GET_DRIVER_VERSION);
            String driverVersion;
            switch (driver) {
                case Reading.Present<String>(String v) -> driverVersion = v;
                case Reading.Absent<String>(String reason) -> { return Reading.absent(reason); }
                case Reading.Failed<String>(String path, String cause) -> { return Reading.failed(path, cause); }
            }
            String nvml = versionString(functions, arena, NvmlSymbol.SYSTEM_GET_NVML_VERSION).describe();
            return Reading.of(new NvmlSystem(driverVersion, cudaVersion(functions, arena).describe(), nvml));
        }
    }

    /** Every GPU NVML can see, in NVML index order. */
    public Reading<List<Gpu>> gpus() {
        return gpus(true);
    }

    /**
     * Every GPU; the NVLink error counters only when {@code withLinkErrors}: they cost four NVML calls per link
     * (on 2 x H200, 208 ms of a 215 ms read), too much for a one-shot inventory or a 1 s sample.
     */
    public Reading<List<Gpu>> gpus(boolean withLinkErrors) {
        int count;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(JAVA_INT);
            int rc = functions.call(NvmlSymbol.DEVICE_GET_COUNT_V2, out);
            if (rc != NvmlError.SUCCESS) return functions.error(NvmlSymbol.DEVICE_GET_COUNT_V2, rc).toReading();
            count = out.get(JAVA_INT, 0);
        }
        NvmlDeviceReader reader = new NvmlDeviceReader(functions, withLinkErrors, rates, gpm);
        List<Gpu> gpus = new ArrayList<>(count);
        for (int i = 0; i < count; i++) gpus.add(reader.read(i));
        return Reading.of(gpus);
    }

    /**
     * The light read for one-second samples under load: a few fields of chosen GPUs ({@link NvmlSensors}), not
     * every field of every GPU. It lives as long as this library is open.
     */
    public NvmlSensors sensors() {
        return new NvmlSensors(this, functions);
    }

    boolean isClosed() {
        return closed;
    }

    private static Reading<String> versionString(NvmlFunctions functions, Arena arena, NvmlSymbol symbol) {
        MemorySegment buf = arena.allocate(NvmlLayouts.VERSION_BUFFER);
        int rc = functions.call(symbol, buf, NvmlLayouts.VERSION_BUFFER);
        if (rc != NvmlError.SUCCESS) return functions.error(symbol, rc).toReading();
        return Reading.of(NvmlLayouts.cString(buf));
    }

    /** "12.2" from 12020; the _v2 call first, the original on drivers that predate it. */
    private static Reading<String> cudaVersion(NvmlFunctions functions, Arena arena) {
        MemorySegment out = arena.allocate(JAVA_INT);
        NvmlSymbol symbol = functions.has(NvmlSymbol.SYSTEM_GET_CUDA_DRIVER_VERSION_V2)
                ? NvmlSymbol.SYSTEM_GET_CUDA_DRIVER_VERSION_V2 : NvmlSymbol.SYSTEM_GET_CUDA_DRIVER_VERSION;
        int rc = functions.call(symbol, out);
        if (rc != NvmlError.SUCCESS) return functions.error(symbol, rc).toReading();
        int v = out.get(JAVA_INT, 0);
        return Reading.of(v / 1000 + "." + (v % 1000) / 10);
    }

    /** nvmlShutdown, then unload the library. */
    @Override
    public void close() {
        if (closed) return;
        closed = true;
        try {
            functions.call(NvmlSymbol.SHUTDOWN);
        } finally {
            library.close();
        }
    }
}
