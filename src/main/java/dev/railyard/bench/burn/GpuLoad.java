package dev.railyard.bench.burn;

import dev.railyard.model.BurnResult.Checksum;
import dev.railyard.model.BurnResult.Precision;
import dev.railyard.nativelib.CudaEvent;
import dev.railyard.nativelib.CudaStream;
import dev.railyard.nativelib.DeviceBuffer;
import dev.railyard.nativelib.FfmCublasLt;
import dev.railyard.nativelib.FfmCuda;
import dev.railyard.nativelib.HostBuffer;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * One GPU under load for one precision, on the thread that calls it. As gpu-fryer does, the inputs A and B are
 * allocated once and the results go round a ring of slots that fills the GPU's free memory (95 %), so the whole
 * memory is written, not only what one multiply needs. Batches are queued two deep, so the GPU never waits for the
 * host between them; each batch is timed with CUDA events.
 */
final class GpuLoad implements AutoCloseable {

    /** Share of the free memory the ring takes, as gpu-fryer; the rest is left to the driver and cuBLASLt. */
    static final double MEMORY_SHARE = 0.95;
    static final long WORKSPACE_BYTES = 32L << 20;
    /** GPU time one batch aims at: short enough for one-second samples and a quick stop, long enough to be cheap. */
    static final double BATCH_SECONDS = 0.1;
    /** Result slots read back at the end besides the last one. */
    static final int SLOTS_COMPARED = 2;

    private final FfmCuda cuda;
    private final int device;
    private final Precision precision;
    private final int n;
    private final long slotBytes;
    private final DeviceBuffer a, b, workspace, ring;
    private final long slots;
    private final FfmCublasLt.Matmul matmul;
    private final CudaStream stream;
    private final List<CudaEvent> events = new ArrayList<>();
    private long next; // the slot the next multiply writes
    private long written; // multiplies launched

    /** Allocates and plans on {@code device}; the caller's thread is bound to it from here on. */
    GpuLoad(FfmCuda cuda, FfmCublasLt lt, int device, Precision precision, MatrixInputs inputs, byte[] hostA, byte[] hostB) {
        this.cuda = cuda;
        this.device = device;
        this.precision = precision;
        this.n = inputs.n();
        cuda.setDevice(device);
        long inputBytes = (long) n * n * MatrixInputs.bytes(precision);
        slotBytes = (long) n * n * Float.BYTES;
        a = upload(hostA, inputBytes);
        b = upload(hostB, inputBytes);
        workspace = cuda.malloc(Math.min(WORKSPACE_BYTES, cuda.memoryInfo().freeBytes() / 8));
        long free = cuda.memoryInfo().freeBytes();
        slots = Math.max(1, (long) (free * MEMORY_SHARE) / slotBytes);
        ring = cuda.malloc(slots * slotBytes);
        stream = cuda.streamCreate();
        matmul = lt.plan(type(precision), n, workspace);
        for (int i = 0; i < 4; i++) events.add(cuda.eventCreate());
    }

    private DeviceBuffer upload(byte[] host, long bytes) {
        HostBuffer h = HostBuffer.unpinned(bytes);
        h.put(0, host);
        DeviceBuffer d = cuda.malloc(bytes);
        cuda.copyToDevice(d, h, bytes);
        return d;
    }

    static FfmCublasLt.InputType type(Precision p) {
        return switch (p) {
            case FP8 -> FfmCublasLt.InputType.FP8_E4M3;
            case BF16 -> FfmCublasLt.InputType.BF16;
            case FP32 -> FfmCublasLt.InputType.FP32;
            case FP64 -> throw new IllegalArgumentException("burn does not load in FP64");
        };
    }

    long slots() {
        return slots;
    }

    double flopsPerMultiply() {
        return 2.0 * n * n * n;
    }

    /**
     * Multiplies until {@code stop} says so, adding each finished batch to {@code counter}. Each batch is sized from
     * the last one's time per multiply, the longer of GPU time and wall time between finishes (where the GPU is
     * not the bottleneck, as with a slow host, wall time is the honest one), starting from a single multiply.
     */
    void run(LoadCounter counter, BooleanSupplier stop, LongSupplier nanoTime) {
        int batch = 1;
        Batch previous = null;
        int e = 0;
        long lastFinish = nanoTime.getAsLong();
        while (true) {
            boolean stopping = stop.getAsBoolean();
            Batch current = null;
            if (!stopping) {
                current = launch(batch, events.get(e), events.get(e + 1));
                e = 2 - e;
            }
            if (previous != null) {
                long nanos = finish(previous);
                long now = nanoTime.getAsLong();
                counter.add(previous.count, previous.count * flopsPerMultiply(), nanos);
                double perMultiply = Math.max(nanos, now - lastFinish) / (double) previous.count;
                lastFinish = now;
                if (perMultiply > 0) batch = (int) Math.max(1, Math.min(10_000, BATCH_SECONDS * 1e9 / perMultiply));
            }
            if (stopping) return;
            previous = current;
        }
    }

    private record Batch(int count, CudaEvent start, CudaEvent end) {}

    private Batch launch(int count, CudaEvent start, CudaEvent end) {
        cuda.eventRecord(start, stream);
        for (int i = 0; i < count; i++) {
            matmul.launch(a, b, ring.at(next * slotBytes), stream);
            next = (next + 1) % slots;
            written++;
        }
        cuda.eventRecord(end, stream);
        return new Batch(count, start, end);
    }

    private long finish(Batch batch) {
        cuda.eventSynchronize(batch.end);
        return Math.round(cuda.elapsedMs(batch.start, batch.end) * 1e6);
    }

    /**
     * Reads back the last result and up to {@link #SLOTS_COMPARED} others spread over the ring, and checks the
     * last one's top-left tile against the CPU. Nothing written yet: no checksum.
     */
    Checksum verify(MatrixInputs inputs, int tile) {
        cuda.streamSynchronize(stream);
        if (written == 0) throw new IllegalStateException("no multiply finished");
        long last = (next - 1 + slots) % slots;
        HostBuffer host = HostBuffer.unpinned(slotBytes);
        cuda.copyToHost(host, ring.at(last * slotBytes), slotBytes);
        long crc = host.crc32c(0, slotBytes);
        MatrixInputs.TileCheck t = inputs.tileMismatches(tile, (i, j) -> host.floatAt(4L * (i + (long) j * n)));
        long filled = Math.min(written, slots);
        int compared = 0, differing = 0;
        HostBuffer other = HostBuffer.unpinned(slotBytes);
        for (int k = 1; k <= SLOTS_COMPARED && k < filled; k++) {
            long slot = (last + slots - k * Math.max(1, filled / (SLOTS_COMPARED + 1))) % slots;
            cuda.copyToHost(other, ring.at(slot * slotBytes), slotBytes);
            compared++;
            if (other.crc32c(0, slotBytes) != crc) differing++;
        }
        return new Checksum(crc, compared, differing, t.size(), t.mismatches(), t.maxRelativeError());
    }

    int device() {
        return device;
    }

    Precision precision() {
        return precision;
    }

    @Override
    public void close() {
        cuda.setDevice(device);
        for (CudaEvent e : events) cuda.eventDestroy(e);
        matmul.close();
        cuda.free(ring);
        cuda.free(workspace);
        cuda.free(a);
        cuda.free(b);
    }
}
