package dev.railyard.nativelib;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.List;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * libnccl.so.2 through FFM: communicator set-up (one process driving N GPUs, or one rank per process with a unique
 * id exchanged out of band) and the collectives nccl-tests measures, on opaque communicators, streams and buffers.
 */
public final class FfmNccl {

    public static final List<String> CANDIDATES = List.of("libnccl.so.2", "libnccl.so",
            "/usr/lib/x86_64-linux-gnu/libnccl.so.2", "/usr/local/nccl/lib/libnccl.so.2");

    /** sizeof(ncclUniqueId): NCCL_UNIQUE_ID_BYTES. */
    public static final int UNIQUE_ID_BYTES = 128;
    private static final MemoryLayout UNIQUE_ID = MemoryLayout.structLayout(
            MemoryLayout.sequenceLayout(UNIQUE_ID_BYTES, JAVA_BYTE).withName("internal"));

    private static final Linker.Option CRITICAL = Linker.Option.critical(false);

    private final MethodHandle getVersion, getErrorString, getUniqueId, commInitRank, commInitAll, commDestroy,
            groupStart, groupEnd, allReduce, allGather, reduceScatter, broadcast, reduce, send, recv;

    public FfmNccl(NativeLibrary lib) {
        getVersion = lib.require("ncclGetVersion", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        getErrorString = lib.require("ncclGetErrorString", FunctionDescriptor.of(ADDRESS, JAVA_INT));
        getUniqueId = lib.require("ncclGetUniqueId", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        commInitRank = lib.require("ncclCommInitRank",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, UNIQUE_ID, JAVA_INT));
        commInitAll = lib.require("ncclCommInitAll", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS));
        commDestroy = lib.require("ncclCommDestroy", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        // The calls of the timed loop are linked as "critical": they only enqueue work and never call back into
        // Java, so the JVM can skip the thread-state switch around them (small messages are launch-bound).
        groupStart = lib.require("ncclGroupStart", FunctionDescriptor.of(JAVA_INT), CRITICAL);
        groupEnd = lib.require("ncclGroupEnd", FunctionDescriptor.of(JAVA_INT), CRITICAL);
        // (sendbuff, recvbuff, count, datatype, op, comm, stream)
        allReduce = lib.require("ncclAllReduce", FunctionDescriptor.of(JAVA_INT,
                ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS), CRITICAL);
        // (sendbuff, recvbuff, sendcount, datatype, comm, stream)
        allGather = lib.require("ncclAllGather", FunctionDescriptor.of(JAVA_INT,
                ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, ADDRESS, ADDRESS), CRITICAL);
        // (sendbuff, recvbuff, recvcount, datatype, op, comm, stream)
        reduceScatter = lib.require("ncclReduceScatter", FunctionDescriptor.of(JAVA_INT,
                ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS), CRITICAL);
        // (sendbuff, recvbuff, count, datatype, root, comm, stream)
        broadcast = lib.require("ncclBroadcast", FunctionDescriptor.of(JAVA_INT,
                ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS), CRITICAL);
        // (sendbuff, recvbuff, count, datatype, op, root, comm, stream)
        reduce = lib.require("ncclReduce", FunctionDescriptor.of(JAVA_INT,
                ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS), CRITICAL);
        // (buff, count, datatype, peer, comm, stream)
        send = lib.require("ncclSend", FunctionDescriptor.of(JAVA_INT,
                ADDRESS, JAVA_LONG, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS), CRITICAL);
        recv = lib.require("ncclRecv", FunctionDescriptor.of(JAVA_INT,
                ADDRESS, JAVA_LONG, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS), CRITICAL);
    }

    /** e.g. 22807 for 2.28.7. */
    public int version() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(JAVA_INT);
            check("ncclGetVersion", (int) getVersion.invokeExact(v));
            return v.get(JAVA_INT, 0);
        } catch (Throwable t) {
            throw wrap("ncclGetVersion", t);
        }
    }

    public static String versionText(int code) {
        return code >= 10000 ? (code / 10000) + "." + (code % 10000 / 100) + "." + (code % 100)
                : (code / 1000) + "." + (code % 1000 / 100) + "." + (code % 100);
    }

    public byte[] uniqueId() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment id = a.allocate(UNIQUE_ID);
            check("ncclGetUniqueId", (int) getUniqueId.invokeExact(id));
            return id.toArray(JAVA_BYTE);
        } catch (Throwable t) {
            throw wrap("ncclGetUniqueId", t);
        }
    }

    /** One rank of nranks; call with the rank's CUDA device current. */
    public NcclComm commInitRank(int nranks, byte[] uniqueId, int rank) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment comm = a.allocate(ADDRESS);
            MemorySegment id = a.allocate(UNIQUE_ID);
            id.copyFrom(MemorySegment.ofArray(uniqueId));
            check("ncclCommInitRank", (int) commInitRank.invokeExact(comm, nranks, id, rank));
            return new NcclComm(comm.get(ADDRESS, 0));
        } catch (Throwable t) {
            throw wrap("ncclCommInitRank", t);
        }
    }

    /** One communicator per listed device, all in this process. */
    public NcclComm[] commInitAll(int[] devices) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment comms = a.allocate(ADDRESS, devices.length);
            MemorySegment devs = a.allocateFrom(JAVA_INT, devices);
            check("ncclCommInitAll", (int) commInitAll.invokeExact(comms, devices.length, devs));
            NcclComm[] out = new NcclComm[devices.length];
            for (int i = 0; i < devices.length; i++) out[i] = new NcclComm(comms.getAtIndex(ADDRESS, i));
            return out;
        } catch (Throwable t) {
            throw wrap("ncclCommInitAll", t);
        }
    }

    public void commDestroy(NcclComm comm) {
        try {
            check("ncclCommDestroy", (int) commDestroy.invokeExact(comm.handle));
        } catch (Throwable t) {
            throw wrap("ncclCommDestroy", t);
        }
    }

    public void groupStart() {
        try {
            check("ncclGroupStart", (int) groupStart.invokeExact());
        } catch (Throwable t) {
            throw wrap("ncclGroupStart", t);
        }
    }

    public void groupEnd() {
        try {
            check("ncclGroupEnd", (int) groupEnd.invokeExact());
        } catch (Throwable t) {
            throw wrap("ncclGroupEnd", t);
        }
    }

    public void allReduce(DeviceBuffer send, DeviceBuffer recv, long count, int type, int op, NcclComm comm,
                          CudaStream stream) {
        try {
            check("ncclAllReduce", (int) allReduce.invokeExact(send.address, recv.address, count, type, op, comm.handle, stream.handle));
        } catch (Throwable t) {
            throw wrap("ncclAllReduce", t);
        }
    }

    public void allGather(DeviceBuffer send, DeviceBuffer recv, long sendCount, int type, NcclComm comm,
                          CudaStream stream) {
        try {
            check("ncclAllGather", (int) allGather.invokeExact(send.address, recv.address, sendCount, type, comm.handle, stream.handle));
        } catch (Throwable t) {
            throw wrap("ncclAllGather", t);
        }
    }

    public void reduceScatter(DeviceBuffer send, DeviceBuffer recv, long recvCount, int type, int op,
                              NcclComm comm, CudaStream stream) {
        try {
            check("ncclReduceScatter", (int) reduceScatter.invokeExact(send.address, recv.address, recvCount, type, op, comm.handle, stream.handle));
        } catch (Throwable t) {
            throw wrap("ncclReduceScatter", t);
        }
    }

    public void broadcast(DeviceBuffer send, DeviceBuffer recv, long count, int type, int root, NcclComm comm,
                          CudaStream stream) {
        try {
            check("ncclBroadcast", (int) broadcast.invokeExact(send.address, recv.address, count, type, root, comm.handle, stream.handle));
        } catch (Throwable t) {
            throw wrap("ncclBroadcast", t);
        }
    }

    public void reduce(DeviceBuffer send, DeviceBuffer recv, long count, int type, int op, int root,
                       NcclComm comm, CudaStream stream) {
        try {
            check("ncclReduce", (int) reduce.invokeExact(send.address, recv.address, count, type, op, root, comm.handle, stream.handle));
        } catch (Throwable t) {
            throw wrap("ncclReduce", t);
        }
    }

    public void send(DeviceBuffer buf, long count, int type, int peer, NcclComm comm, CudaStream stream) {
        try {
            check("ncclSend", (int) send.invokeExact(buf.address, count, type, peer, comm.handle, stream.handle));
        } catch (Throwable t) {
            throw wrap("ncclSend", t);
        }
    }

    public void recv(DeviceBuffer buf, long count, int type, int peer, NcclComm comm, CudaStream stream) {
        try {
            check("ncclRecv", (int) recv.invokeExact(buf.address, count, type, peer, comm.handle, stream.handle));
        } catch (Throwable t) {
            throw wrap("ncclRecv", t);
        }
    }

    private void check(String what, int rc) throws Throwable {
        if (rc != 0) {
            String msg = NativeLibrary.cString((MemorySegment) getErrorString.invokeExact(rc));
            throw new NativeCallException(NativeCallException.Library.NCCL, what, rc, msg);
        }
    }

    private static NativeCallException wrap(String what, Throwable t) {
        return t instanceof NativeCallException n ? n : new NativeCallException(what, t);
    }
}
