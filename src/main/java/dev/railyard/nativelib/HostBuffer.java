package dev.railyard.nativelib;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Host memory the GPU copies to and from: page-locked (cudaMallocHost) in a benchmark, or plain memory in tests. The
 * benchmarks fill it with one element repeated and compare it with another buffer, so those two operations are all
 * it offers; the segment stays inside this package.
 */
public final class HostBuffer {

    final MemorySegment segment;

    HostBuffer(MemorySegment segment) {
        this.segment = segment;
    }

    /** Ordinary (not page-locked) memory, freed when unreachable: for code that needs no GPU, such as tests. */
    public static HostBuffer unpinned(long bytes) {
        return new HostBuffer(Arena.ofAuto().allocate(bytes, 16));
    }

    public long bytes() {
        return segment.byteSize();
    }

    /**
     * Writes {@code element} over and over from byte {@code from} up to {@code to} ({@code to - from} a multiple of
     * its length). Copies double each time, so 16 MiB take a few dozen copies rather than millions of stores.
     */
    public void fill(byte[] element, long from, long to) {
        long span = to - from;
        if (span <= 0) return;
        if (span % element.length != 0) {
            throw new IllegalArgumentException(span + " bytes is not a whole number of " + element.length + "-byte elements");
        }
        MemorySegment.copy(MemorySegment.ofArray(element), 0, segment, from, element.length);
        for (long done = element.length; done < span; done *= 2) {
            MemorySegment.copy(segment, from, segment, from + done, Math.min(done, span - done));
        }
    }

    /**
     * How many of the {@code elementBytes}-byte elements in the first {@code bytes} bytes differ from
     * {@code expected}'s; a vectorised compare first, element by element only when something differs.
     */
    public long countDifferentElements(HostBuffer expected, long bytes, int elementBytes) {
        return countDifferentElements(expected, 0, bytes, elementBytes);
    }

    /** As {@link #countDifferentElements(HostBuffer, long, int)} for bytes {@code from} to {@code from + bytes}. */
    public long countDifferentElements(HostBuffer expected, long from, long bytes, int elementBytes) {
        long to = from + bytes;
        if (MemorySegment.mismatch(segment, from, to, expected.segment, from, to) < 0) return 0;
        long wrong = 0;
        for (long off = from; off < to; off += elementBytes) {
            if (MemorySegment.mismatch(segment, off, off + elementBytes, expected.segment, off, off + elementBytes) >= 0) {
                wrong++;
            }
        }
        return wrong;
    }

    /** Writes {@code bytes} at byte {@code offset} (a matrix's inputs, made on the host). */
    public void put(long offset, byte[] bytes) {
        MemorySegment.copy(MemorySegment.ofArray(bytes), 0, segment, offset, bytes.length);
    }

    /** The little-endian float at byte {@code offset} (a result element, as the GPU wrote it). */
    public float floatAt(long offset) {
        return segment.get(java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED, offset);
    }

    /** CRC-32C of bytes {@code from} to {@code to}: a result's fingerprint, compared between GPUs. */
    public long crc32c(long from, long to) {
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        for (long at = from; at < to; at += Integer.MAX_VALUE) {
            crc.update(segment.asSlice(at, Math.min(Integer.MAX_VALUE, to - at)).asByteBuffer());
        }
        return crc.getValue();
    }

    /** A copy of bytes {@code from} to {@code to}, for tests and diagnostics. */
    public byte[] toArray(long from, long to) {
        return segment.asSlice(from, to - from).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
    }
}
