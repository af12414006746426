package dev.railyard.bench.nccl;

import dev.railyard.nativelib.CudaStream;
import dev.railyard.nativelib.DeviceBuffer;
import dev.railyard.nativelib.FfmCuda;
import dev.railyard.nativelib.HostBuffer;

import java.util.stream.LongStream;

/**
 * Fills device buffers with a constant small integer and counts elements that differ from an expected constant,
 * through pinned host staging buffers. A fill copies one chunk to the GPU and doubles it there (device copies run at
 * TB/s, the PCIe link at ~55 GB/s); a check copies chunk after chunk back while the previous one is compared, each
 * compare vectorised (HostBuffer.countDifferentElements) and split over the cores, so a 2 GiB check costs about one
 * PCIe read of it.
 */
final class DataPattern implements AutoCloseable {

    private static final long CHUNK = 16L << 20;
    /** What one core compares at a time: small enough to spread a chunk over 8 cores. */
    private static final long SLICE = 2L << 20;

    private final FfmCuda cuda;
    private final PatternBuffer staging;
    private final PatternBuffer expected;
    private final HostBuffer[] readback = new HostBuffer[2];

    DataPattern(FfmCuda cuda) {
        this.cuda = cuda;
        this.staging = new PatternBuffer(cuda.mallocHost(CHUNK));
        this.expected = new PatternBuffer(cuda.mallocHost(CHUNK));
        this.readback[0] = cuda.mallocHost(CHUNK);
        this.readback[1] = cuda.mallocHost(CHUNK);
    }

    /** Sets {@code elements} elements of {@code device} to {@code value}; done when this returns. */
    void fill(DeviceBuffer device, long elements, DataType type, int value, CudaStream stream) {
        if (elements <= 0) return;
        long total = elements * type.bytes;
        long first = Math.min(CHUNK, total);
        staging.prepare(type, value, first / type.bytes);
        cuda.copyToDevice(device, staging.buffer(), first);
        for (long done = first; done < total; done *= 2) {
            cuda.copyWithinDeviceAsync(device.at(done), device, Math.min(done, total - done), stream);
        }
        cuda.streamSynchronize(stream);
    }

    /**
     * Number of the first {@code elements} elements of {@code device} that are not {@code value}; {@code stream} must
     * be idle (the copies back run on it, one chunk ahead of the compare).
     */
    long countWrong(DeviceBuffer device, long elements, DataType type, int value, CudaStream stream) {
        if (elements <= 0) return 0;
        expected.prepare(type, value, Math.min(elements, CHUNK / type.bytes));
        long total = elements * type.bytes;
        long wrong = 0;
        int current = 0;
        cuda.copyToHostAsync(readback[0], device, Math.min(CHUNK, total), stream);
        for (long done = 0; done < total; done += CHUNK) {
            long len = Math.min(CHUNK, total - done);
            cuda.streamSynchronize(stream);
            long next = done + CHUNK;
            if (next < total) {
                cuda.copyToHostAsync(readback[current ^ 1], device.at(next), Math.min(CHUNK, total - next), stream);
            }
            wrong += compare(readback[current], len, type.bytes);
            current ^= 1;
        }
        return wrong;
    }

    private long compare(HostBuffer got, long len, int elementBytes) {
        HostBuffer want = expected.buffer();
        if (len <= SLICE) return got.countDifferentElements(want, 0, len, elementBytes);
        long slices = (len + SLICE - 1) / SLICE;
        return LongStream.range(0, slices).parallel()
                .map(i -> got.countDifferentElements(want, i * SLICE, Math.min(SLICE, len - i * SLICE), elementBytes))
                .sum();
    }

    @Override
    public void close() {
        cuda.freeHost(staging.buffer());
        cuda.freeHost(expected.buffer());
        cuda.freeHost(readback[0]);
        cuda.freeHost(readback[1]);
    }
}
