package dev.railyard.bench.nccl;

import dev.railyard.nativelib.FfmCuda;

import java.lang.foreign.MemorySegment;

/**
 * Fills device buffers with a constant small integer and counts elements that differ from an expected constant,
 * through pinned host staging buffers: comparison uses MemorySegment.mismatch, so a 2 GiB check is a few copies and
 * vectorised compares, not a per-element loop.
 */
final class DataPattern implements AutoCloseable {

    private static final long CHUNK = 16L << 20;

    private final FfmCuda cuda;
    private final PatternBuffer staging;
    private final PatternBuffer expected;
    private final MemorySegment readback;

    DataPattern(FfmCuda cuda) {
        this.cuda = cuda;
        this.staging = new PatternBuffer(cuda.mallocHost(CHUNK));
        this.expected = new PatternBuffer(cuda.mallocHost(CHUNK));
        this.readback = cuda.mallocHost(CHUNK);
    }

    /** Sets {@code elements} elements at {@code devicePtr} to {@code value}. */
    void fill(MemorySegment devicePtr, long elements, DataType type, int value) {
        if (elements <= 0) return;
        staging.prepare(type, value, elements);
        long total = elements * type.bytes;
        for (long done = 0; done < total; done += CHUNK) {
            long len = Math.min(CHUNK, total - done);
            cuda.memcpy(devicePtr.reinterpret(Long.MAX_VALUE).asSlice(done), staging.segment(), len, FfmCuda.H2D);
        }
    }

    /** Number of the {@code elements} elements at {@code devicePtr} that are not {@code value}. */
    long countWrong(MemorySegment devicePtr, long elements, DataType type, int value) {
        if (elements <= 0) return 0;
        expected.prepare(type, value, elements);
        MemorySegment want = expected.segment();
        long wrong = 0;
        long total = elements * type.bytes;
        for (long done = 0; done < total; done += CHUNK) {
            long len = Math.min(CHUNK, total - done);
            cuda.memcpy(readback, devicePtr.reinterpret(Long.MAX_VALUE).asSlice(done), len, FfmCuda.D2H);
            if (MemorySegment.mismatch(readback, 0, len, want, 0, len) < 0) continue;
            for (long off = 0; off < len; off += type.bytes) {
                if (MemorySegment.mismatch(readback, off, off + type.bytes, want, off, off + type.bytes) >= 0) wrong++;
            }
        }
        return wrong;
    }

    @Override
    public void close() {
        cuda.freeHost(staging.segment());
        cuda.freeHost(expected.segment());
        cuda.freeHost(readback);
    }
}
