package dev.railyard.nativelib;

import java.lang.foreign.MemorySegment;

/** A CUDA stream (cudaStream_t), opaque outside this package. */
public final class CudaStream {

    final MemorySegment handle;

    CudaStream(MemorySegment handle) {
        this.handle = handle;
    }
}
