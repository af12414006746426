package dev.railyard.bench.nccl;

import dev.railyard.nativelib.CudaEvent;
import dev.railyard.nativelib.CudaStream;
import dev.railyard.nativelib.DeviceBuffer;
import dev.railyard.nativelib.NcclComm;

/** One GPU this process drives: its global rank, CUDA device, communicator, stream, buffers and timing events. */
public record NcclRank(int rank, int device, String pciBusId, NcclComm comm, CudaStream stream,
                DeviceBuffer send, DeviceBuffer recv, CudaEvent start, CudaEvent end) {

    DeviceBuffer sendAt(long byteOffset) {
        return send.at(byteOffset);
    }

    DeviceBuffer recvAt(long byteOffset) {
        return recv.at(byteOffset);
    }
}
