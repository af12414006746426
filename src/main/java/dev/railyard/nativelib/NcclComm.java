package dev.railyard.nativelib;

import java.lang.foreign.MemorySegment;

/** One rank's NCCL communicator (ncclComm_t), opaque outside this package. */
public final class NcclComm {

    final MemorySegment handle;

    NcclComm(MemorySegment handle) {
        this.handle = handle;
    }
}
