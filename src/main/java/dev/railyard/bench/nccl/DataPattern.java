package dev.railyard.bench.nccl;

import dev.railyard.nativelib.DeviceBuffer;
import dev.railyard.nativelib.FfmCuda;
import dev.railyard.nativelib.HostBuffer;

/**
 * Fills device buffers with a constant small integer and counts elements that differ from an expected constant,
 * through pinned host staging buffers: the comparison is vectorised (HostBuffer.countDifferentElements), so a 2 GiB
 * check is a few copies and compares, not a per-element loop.
 */
final class DataPattern implements AutoCloseable {

    private static final long CHUNK = 16L << 20;

    private final FfmCuda cuda;
    private final PatternBuffer staging;
    private final PatternBuffer expected;
    private final HostBuffer readback;

    DataPattern(FfmCuda cuda) {
        this.cuda = cuda;
        this.staging = new PatternBuffer(cuda.mallocHost(CHUNK));
        this.expected = new PatternBuffer(cuda.mallocHost(CHUNK));
        this.readback = cuda.mallocHost(CHUNK);
    }

    /** Sets {@code elements} elements of {@code device} to {@code value}. */
    void fill(DeviceBuffer device, long elements, DataType type, int value) {
        if (elements <= 0) return;
        staging.prepare(type, value, elements);
        long total = elements * type.bytes;
        for (long done = 0; done < total; done += CHUNK) {
            long len = Math.min(CHUNK, total - done);
            cuda.copyToDevice(device.at(done), staging.buffer(), len);
        }
    }

    /** Number of the first {@code elements} elements of {@code device} that are not {@code value}. */
    long countWrong(DeviceBuffer device, long elements, DataType type, int value) {
        if (elements <= 0) return 0;
        expected.prepare(type, value, elements);
        long wrong = 0;
        long total = elements * type.bytes;
        for (long done = 0; done < total; done += CHUNK) {
            long len = Math.min(CHUNK, total - done);
            cuda.copyToHost(readback, device.at(done), len);
            wrong += readback.countDifferentElements(expected.buffer(), len, type.bytes);
        }
        return wrong;
    }

    @Override
    public void close() {
        cuda.freeHost(staging.buffer());
        cuda.freeHost(expected.buffer());
        cuda.freeHost(readback);
    }
}
