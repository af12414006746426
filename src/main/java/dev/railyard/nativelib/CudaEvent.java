package dev.railyard.nativelib;

import java.lang.foreign.MemorySegment;

/** A CUDA event (cudaEvent_t) used for timing, opaque outside this package. */
public final class CudaEvent {

    final MemorySegment handle;

    CudaEvent(MemorySegment handle) {
        this.handle = handle;
    }

    /** The handle's value as a number, to match this event in a native library's trace; it cannot be called. */
    public long nativeAddress() {
        return handle.address();
    }
}
