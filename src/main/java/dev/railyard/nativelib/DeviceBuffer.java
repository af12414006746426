package dev.railyard.nativelib;

import java.lang.foreign.MemorySegment;

/**
 * Memory on a GPU (from cudaMalloc), or a place inside it. Opaque outside this package: only the CUDA and NCCL
 * bindings read the address, so no benchmark code can touch device memory from the host by mistake.
 */
public final class DeviceBuffer {

    final MemorySegment address;
    private final long bytes;

    DeviceBuffer(MemorySegment address, long bytes) {
        this.address = address;
        this.bytes = bytes;
    }

    /** Bytes from here to the end of the allocation. */
    public long bytes() {
        return bytes;
    }

    /** The buffer from {@code byteOffset} on (this buffer itself at 0: the hot loops pass offset 0 most of the time). */
    public DeviceBuffer at(long byteOffset) {
        if (byteOffset == 0) return this;
        if (byteOffset < 0 || byteOffset > bytes) {
            throw new IndexOutOfBoundsException("offset " + byteOffset + " outside a buffer of " + bytes + " bytes");
        }
        return new DeviceBuffer(MemorySegment.ofAddress(address.address() + byteOffset), bytes - byteOffset);
    }
}
