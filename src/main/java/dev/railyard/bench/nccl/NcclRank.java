package dev.railyard.bench.nccl;

import java.lang.foreign.MemorySegment;

/** One GPU this process drives: its global rank, CUDA device, communicator, stream, buffers and timing events. */
public record NcclRank(int rank, int device, String pciBusId, MemorySegment comm, MemorySegment stream,
                MemorySegment send, MemorySegment recv, MemorySegment start, MemorySegment end) {

    MemorySegment sendAt(long byteOffset) {
        return offset(send, byteOffset);
    }

    MemorySegment recvAt(long byteOffset) {
        return offset(recv, byteOffset);
    }

    private static MemorySegment offset(MemorySegment base, long byteOffset) {
        return byteOffset == 0 ? base : MemorySegment.ofAddress(base.address() + byteOffset);
    }
}
