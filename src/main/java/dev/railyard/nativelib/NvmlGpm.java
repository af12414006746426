package dev.railyard.nativelib;

import dev.railyard.model.Gpu.Profile;
import dev.railyard.model.Reading;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * DCGM's profiling ratios through NVML GPM (Hopper and later, drivers from R520): each read takes a GPM sample of the
 * GPU and computes the metrics between it and the previous read's sample, so the ratios cover one sampling interval.
 * The first read of a GPU only takes its sample. A GPU or driver without GPM gives absent readings that say why;
 * that answer is kept, so an unsupported GPU costs one call per session, not one per sample.
 *
 * <p>Two sample buffers per GPU are allocated once (nvmlGpmSampleAlloc) and kept for the NVML session's life: they
 * are not freed before nvmlShutdown, so no free can race a read still in flight when the agent stops.
 */
final class NvmlGpm {

    /** NVML_GPM_METRIC_* of nvml.h, in {@link Profile}'s order. */
    private static final int[] METRICS = {
            1,  // GRAPHICS_UTIL: DCGM_FI_PROF_GR_ENGINE_ACTIVE
            2,  // SM_UTIL: DCGM_FI_PROF_SM_ACTIVE
            3,  // SM_OCCUPANCY: DCGM_FI_PROF_SM_OCCUPANCY
            5,  // ANY_TENSOR_UTIL: DCGM_FI_PROF_PIPE_TENSOR_ACTIVE
            10, // DRAM_BW_UTIL: DCGM_FI_PROF_DRAM_ACTIVE
            11, // FP64_UTIL: DCGM_FI_PROF_PIPE_FP64_ACTIVE
            12, // FP32_UTIL: DCGM_FI_PROF_PIPE_FP32_ACTIVE
            13  // FP16_UTIL: DCGM_FI_PROF_PIPE_FP16_ACTIVE
    };

    private sealed interface State {
        /** GPM is not there for this GPU, for good: why. */
        record Unsupported(String why) implements State {}

        /** The two buffers; {@code previous} holds the last sample, or none yet. */
        final class Sampling implements State {
            private MemorySegment previous;
            private MemorySegment current;
            private boolean primed;

            Sampling(MemorySegment a, MemorySegment b) {
                this.previous = a;
                this.current = b;
            }
        }
    }

    private final NvmlFunctions f;
    private final Map<String, State> gpus = new ConcurrentHashMap<>();

    NvmlGpm(NvmlFunctions functions) {
        this.f = functions;
    }

    /** This interval's ratios for the GPU at {@code busId}, or why there are none. */
    Reading<Profile> read(Arena arena, MemorySegment dev, String busId) {
        State state = gpus.get(busId);
        if (state == null) {
            switch (open(arena, dev)) {
                case Reading.Present<State>(State s) -> gpus.put(busId, state = s);
                case Reading.Absent<State>(String why) -> {
                    return Reading.absent(why);
                }
                case Reading.Failed<State>(String path, String cause) -> {
                    return Reading.failed(path, cause);
                }
            }
        }
        return switch (state) {
            case State.Unsupported(String why) -> Reading.absent(why);
            case State.Sampling s -> sample(arena, dev, s);
        };
    }

    /** Whether GPM is there; a failure that may pass (a GPU lost for now) is not kept, only a definite no. */
    private Reading<State> open(Arena arena, MemorySegment dev) {
        if (!f.has(NvmlSymbol.GPM_QUERY_DEVICE_SUPPORT) || !f.has(NvmlSymbol.GPM_METRICS_GET)) {
            return Reading.of(new State.Unsupported("this driver's NVML has no GPM (nvmlGpmMetricsGet: R520 and later)"));
        }
        MemorySegment support = arena.allocate(NvmlLayouts.GPM_SUPPORT_SIZE, 4);
        support.set(JAVA_INT, 0, NvmlLayouts.GPM_SUPPORT_VERSION);
        int rc = f.call(NvmlSymbol.GPM_QUERY_DEVICE_SUPPORT, dev, support);
        if (rc == NvmlError.ERROR_NOT_SUPPORTED) return Reading.of(new State.Unsupported(unsupported(rc)));
        if (rc != NvmlError.SUCCESS) return f.error(NvmlSymbol.GPM_QUERY_DEVICE_SUPPORT, rc).toReading();
        if (support.get(JAVA_INT, NvmlLayouts.GPM_SUPPORTED_OFFSET) == 0) {
            return Reading.of(new State.Unsupported("this GPU has no GPM (Hopper and later have it)"));
        }
        MemorySegment a = alloc(arena);
        MemorySegment b = alloc(arena);
        if (a == null || b == null) {
            return Reading.failed("nvmlGpmSampleAlloc", "NVML could not allocate a GPM sample");
        }
        return Reading.of(new State.Sampling(a, b));
    }

    private String unsupported(int rc) {
        return "nvmlGpmQueryDeviceSupport: " + f.errorString(rc);
    }

    private MemorySegment alloc(Arena arena) {
        MemorySegment out = arena.allocate(ADDRESS);
        if (f.call(NvmlSymbol.GPM_SAMPLE_ALLOC, out) != NvmlError.SUCCESS) return null;
        return out.get(ADDRESS, 0);
    }

    private Reading<Profile> sample(Arena arena, MemorySegment dev, State.Sampling s) {
        int rc = f.call(NvmlSymbol.GPM_SAMPLE_GET, dev, s.current);
        if (rc != NvmlError.SUCCESS) {
            // MIG mode, a lost GPU: no ratios this time, and the next interval starts afresh
            s.primed = false;
            return f.error(NvmlSymbol.GPM_SAMPLE_GET, rc).toReading();
        }
        MemorySegment previous = s.previous;
        s.previous = s.current;
        s.current = previous;
        if (!s.primed) {
            s.primed = true;
            return Reading.absent("the first GPM sample of this GPU was taken now; ratios come from the next sample on");
        }
        return metrics(arena, previous, s.previous);
    }

    private Reading<Profile> metrics(Arena arena, MemorySegment earlier, MemorySegment later) {
        MemorySegment get = arena.allocate(NvmlLayouts.GPM_GET_SIZE, 8);
        get.set(JAVA_INT, 0, NvmlLayouts.GPM_METRICS_GET_VERSION);
        get.set(JAVA_INT, 4, METRICS.length);
        get.set(ADDRESS, NvmlLayouts.GPM_GET_SAMPLE1_OFFSET, earlier);
        get.set(ADDRESS, NvmlLayouts.GPM_GET_SAMPLE2_OFFSET, later);
        long size = NvmlLayouts.GPM_METRIC.byteSize();
        for (int i = 0; i < METRICS.length; i++) {
            get.set(JAVA_INT, NvmlLayouts.GPM_GET_METRICS_OFFSET + i * size + NvmlLayouts.GPM_METRIC_ID_OFFSET, METRICS[i]);
        }
        int rc = f.call(NvmlSymbol.GPM_METRICS_GET, get);
        if (rc != NvmlError.SUCCESS) return f.error(NvmlSymbol.GPM_METRICS_GET, rc).toReading();
        @SuppressWarnings("unchecked")
        Reading<Double>[] r = new Reading[METRICS.length];
        for (int i = 0; i < METRICS.length; i++) {
            long at = NvmlLayouts.GPM_GET_METRICS_OFFSET + i * size;
            int metricRc = get.get(JAVA_INT, at + NvmlLayouts.GPM_METRIC_RETURN_OFFSET);
            r[i] = metricRc == NvmlError.SUCCESS
                    // NVML gives percent; DCGM's profiling fields are ratios
                    ? Reading.of(get.get(JAVA_DOUBLE, at + NvmlLayouts.GPM_METRIC_VALUE_OFFSET) / 100.0)
                    : new NvmlError("nvmlGpmMetricsGet metric " + METRICS[i], metricRc, f.errorString(metricRc)).toReading();
        }
        return Reading.of(new Profile(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7]));
    }
}
