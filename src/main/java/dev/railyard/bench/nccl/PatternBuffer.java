package dev.railyard.bench.nccl;

import dev.railyard.nativelib.HostBuffer;

/**
 * A host buffer holding one constant in its first elements, refilled only as far as the next copy needs: a 1 KiB
 * message touches 256 floats, not the whole 16 MiB buffer. (Refilling all of it for every small size made each
 * check pass run millions of stores right before the timed loop.)
 */
final class PatternBuffer {

    private final HostBuffer buffer;
    private DataType type;
    private int value;
    private long filled;

    PatternBuffer(HostBuffer buffer) {
        this.buffer = buffer;
    }

    HostBuffer buffer() {
        return buffer;
    }

    /** Elements that fit in the buffer. */
    long capacity(DataType t) {
        return buffer.bytes() / t.bytes;
    }

    /** Makes sure the first {@code elements} (at most the capacity) hold {@code v}; returns how many do. */
    long prepare(DataType t, int v, long elements) {
        long needed = Math.min(elements, capacity(t));
        if (t != type || v != value) {
            type = t;
            value = v;
            filled = 0;
        }
        if (needed > filled) buffer.fill(t.encode(v), filled * t.bytes, needed * t.bytes);
        filled = Math.max(filled, needed);
        return needed;
    }
}
