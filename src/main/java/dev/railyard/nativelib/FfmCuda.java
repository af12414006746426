package dev.railyard.nativelib;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.List;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The part of the CUDA runtime (libcudart) the benchmarks need: devices, memory, copies, streams, events.
 * Device memory, streams and events are opaque handles ({@link DeviceBuffer}, {@link CudaStream}, {@link CudaEvent}).
 */
public final class FfmCuda {

    public static final List<String> CANDIDATES = List.of("libcudart.so", "libcudart.so.13", "libcudart.so.12",
            "/usr/local/cuda/lib64/libcudart.so", "/usr/local/cuda-13.0/targets/x86_64-linux/lib/libcudart.so.13");

    private static final int H2D = 1;
    private static final int D2H = 2;
    private static final int D2D = 3;

    private final MethodHandle getErrorString, getDeviceCount, setDevice, malloc, free, memset, memcpy, memcpyAsync,
            streamCreate, streamSynchronize, eventCreate, eventRecord, eventSynchronize, eventElapsed, eventDestroy,
            mallocHost, freeHost, canAccessPeer, enablePeerAccess, memcpyPeerAsync, runtimeVersion, pciBusId,
            deviceSynchronize, memGetInfo, deviceAttribute;

    public FfmCuda(NativeLibrary lib) {
        getErrorString = lib.require("cudaGetErrorString", FunctionDescriptor.of(ADDRESS, JAVA_INT));
        getDeviceCount = lib.require("cudaGetDeviceCount", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        setDevice = lib.require("cudaSetDevice", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
        malloc = lib.require("cudaMalloc", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG));
        free = lib.require("cudaFree", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        memset = lib.require("cudaMemset", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_LONG));
        memcpy = lib.require("cudaMemcpy", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT));
        memcpyAsync = lib.require("cudaMemcpyAsync",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, ADDRESS));
        streamCreate = lib.require("cudaStreamCreateWithFlags", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
        streamSynchronize = lib.require("cudaStreamSynchronize", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        eventCreate = lib.require("cudaEventCreate", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        eventRecord = lib.require("cudaEventRecord", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        eventSynchronize = lib.require("cudaEventSynchronize", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        eventElapsed = lib.require("cudaEventElapsedTime", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
        eventDestroy = lib.require("cudaEventDestroy", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        mallocHost = lib.require("cudaMallocHost", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG));
        freeHost = lib.require("cudaFreeHost", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        canAccessPeer = lib.require("cudaDeviceCanAccessPeer", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT));
        enablePeerAccess = lib.require("cudaDeviceEnablePeerAccess", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT));
        memcpyPeerAsync = lib.require("cudaMemcpyPeerAsync",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, JAVA_INT, JAVA_LONG, ADDRESS));
        runtimeVersion = lib.require("cudaRuntimeGetVersion", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        pciBusId = lib.require("cudaDeviceGetPCIBusId", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT));
        deviceSynchronize = lib.require("cudaDeviceSynchronize", FunctionDescriptor.of(JAVA_INT));
        memGetInfo = lib.require("cudaMemGetInfo", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        deviceAttribute = lib.require("cudaDeviceGetAttribute", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT));
    }

    public int deviceCount() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment n = a.allocate(JAVA_INT);
            check("cudaGetDeviceCount", (int) getDeviceCount.invokeExact(n));
            return n.get(JAVA_INT, 0);
        } catch (Throwable t) {
            throw wrap("cudaGetDeviceCount", t);
        }
    }

    public int runtimeVersion() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment n = a.allocate(JAVA_INT);
            check("cudaRuntimeGetVersion", (int) runtimeVersion.invokeExact(n));
            return n.get(JAVA_INT, 0);
        } catch (Throwable t) {
            throw wrap("cudaRuntimeGetVersion", t);
        }
    }

    public String pciBusId(int device) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment s = a.allocate(32);
            check("cudaDeviceGetPCIBusId", (int) pciBusId.invokeExact(s, 32, device));
            return s.getString(0).toLowerCase(java.util.Locale.ROOT);
        } catch (Throwable t) {
            throw wrap("cudaDeviceGetPCIBusId", t);
        }
    }

    /** The device's compute capability as major x 10 + minor (90 for an H100), from cudaDeviceGetAttribute. */
    public int computeCapability(int device) {
        return attribute(device, 75) * 10 + attribute(device, 76); // cudaDevAttrComputeCapabilityMajor, Minor
    }

    private int attribute(int device, int attribute) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(JAVA_INT);
            check("cudaDeviceGetAttribute(" + attribute + ")", (int) deviceAttribute.invokeExact(v, attribute, device));
            return v.get(JAVA_INT, 0);
        } catch (Throwable t) {
            throw wrap("cudaDeviceGetAttribute", t);
        }
    }

    public void setDevice(int device) {
        try {
            check("cudaSetDevice(" + device + ")", (int) setDevice.invokeExact(device));
        } catch (Throwable t) {
            throw wrap("cudaSetDevice", t);
        }
    }

    public DeviceBuffer malloc(long bytes) {
        return new DeviceBuffer(allocWith(malloc, "cudaMalloc(" + bytes + ")", bytes), bytes);
    }

    /** Page-locked host memory, needed for full-speed host<->device copies. */
    public HostBuffer mallocHost(long bytes) {
        return new HostBuffer(allocWith(mallocHost, "cudaMallocHost(" + bytes + ")", bytes).reinterpret(bytes));
    }

    private MemorySegment allocWith(MethodHandle h, String what, long bytes) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment p = a.allocate(ADDRESS);
            check(what, (int) h.invokeExact(p, bytes));
            return p.get(ADDRESS, 0);
        } catch (Throwable t) {
            throw wrap(what, t);
        }
    }

    /** Free and total memory of the current device, in bytes (cudaMemGetInfo). */
    public MemoryInfo memoryInfo() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment free = a.allocate(JAVA_LONG);
            MemorySegment total = a.allocate(JAVA_LONG);
            check("cudaMemGetInfo", (int) memGetInfo.invokeExact(free, total));
            return new MemoryInfo(free.get(JAVA_LONG, 0), total.get(JAVA_LONG, 0));
        } catch (Throwable t) {
            throw wrap("cudaMemGetInfo", t);
        }
    }

    /** What cudaMemGetInfo says about the current device. */
    public record MemoryInfo(long freeBytes, long totalBytes) {}

    public void free(DeviceBuffer buffer) {
        call("cudaFree", free, buffer.address);
    }

    public void freeHost(HostBuffer buffer) {
        call("cudaFreeHost", freeHost, buffer.segment);
    }

    public void memset(DeviceBuffer buffer, int value, long bytes) {
        try {
            check("cudaMemset", (int) memset.invokeExact(buffer.address, value, bytes));
        } catch (Throwable t) {
            throw wrap("cudaMemset", t);
        }
    }

    public void copyToDevice(DeviceBuffer dst, HostBuffer src, long bytes) {
        memcpy(dst.address, src.segment, bytes, H2D);
    }

    private void memcpy(MemorySegment dst, MemorySegment src, long bytes, int kind) {
        try {
            check("cudaMemcpy", (int) memcpy.invokeExact(dst, src, bytes, kind));
        } catch (Throwable t) {
            throw wrap("cudaMemcpy", t);
        }
    }

    /** Synchronous device-to-host copy (a burn reads its results back once a phase). */
    public void copyToHost(HostBuffer dst, DeviceBuffer src, long bytes) {
        memcpy(dst.segment, src.address, bytes, D2H);
    }

    public void copyToDeviceAsync(DeviceBuffer dst, HostBuffer src, long bytes, CudaStream stream) {
        memcpyAsync(dst.address, src.segment, bytes, H2D, stream);
    }

    public void copyToHostAsync(HostBuffer dst, DeviceBuffer src, long bytes, CudaStream stream) {
        memcpyAsync(dst.segment, src.address, bytes, D2H, stream);
    }

    public void copyWithinDeviceAsync(DeviceBuffer dst, DeviceBuffer src, long bytes, CudaStream stream) {
        memcpyAsync(dst.address, src.address, bytes, D2D, stream);
    }

    private void memcpyAsync(MemorySegment dst, MemorySegment src, long bytes, int kind, CudaStream stream) {
        try {
            check("cudaMemcpyAsync", (int) memcpyAsync.invokeExact(dst, src, bytes, kind, stream.handle));
        } catch (Throwable t) {
            throw wrap("cudaMemcpyAsync", t);
        }
    }

    public void memcpyPeerAsync(DeviceBuffer dst, int dstDevice, DeviceBuffer src, int srcDevice, long bytes,
                                CudaStream stream) {
        try {
            check("cudaMemcpyPeerAsync", (int) memcpyPeerAsync.invokeExact(dst.address, dstDevice, src.address,
                    srcDevice, bytes, stream.handle));
        } catch (Throwable t) {
            throw wrap("cudaMemcpyPeerAsync", t);
        }
    }

    public boolean canAccessPeer(int device, int peer) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment r = a.allocate(JAVA_INT);
            check("cudaDeviceCanAccessPeer", (int) canAccessPeer.invokeExact(r, device, peer));
            return r.get(JAVA_INT, 0) != 0;
        } catch (Throwable t) {
            throw wrap("cudaDeviceCanAccessPeer", t);
        }
    }

    /** Enables access from the current device to peer; "already enabled" (704) is fine. */
    public void enablePeerAccess(int peer) {
        try {
            int rc = (int) enablePeerAccess.invokeExact(peer, 0);
            if (rc != 0 && rc != 704) check("cudaDeviceEnablePeerAccess", rc);
        } catch (Throwable t) {
            throw wrap("cudaDeviceEnablePeerAccess", t);
        }
    }

    /** A non-blocking stream (does not synchronise with the legacy default stream). */
    public CudaStream streamCreate() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment p = a.allocate(ADDRESS);
            check("cudaStreamCreateWithFlags", (int) streamCreate.invokeExact(p, 1));
            return new CudaStream(p.get(ADDRESS, 0));
        } catch (Throwable t) {
            throw wrap("cudaStreamCreateWithFlags", t);
        }
    }

    public void streamSynchronize(CudaStream stream) {
        call("cudaStreamSynchronize", streamSynchronize, stream.handle);
    }

    public void deviceSynchronize() {
        try {
            check("cudaDeviceSynchronize", (int) deviceSynchronize.invokeExact());
        } catch (Throwable t) {
            throw wrap("cudaDeviceSynchronize", t);
        }
    }

    public CudaEvent eventCreate() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment p = a.allocate(ADDRESS);
            check("cudaEventCreate", (int) eventCreate.invokeExact(p));
            return new CudaEvent(p.get(ADDRESS, 0));
        } catch (Throwable t) {
            throw wrap("cudaEventCreate", t);
        }
    }

    public void eventRecord(CudaEvent event, CudaStream stream) {
        try {
            check("cudaEventRecord", (int) eventRecord.invokeExact(event.handle, stream.handle));
        } catch (Throwable t) {
            throw wrap("cudaEventRecord", t);
        }
    }

    public void eventSynchronize(CudaEvent event) {
        call("cudaEventSynchronize", eventSynchronize, event.handle);
    }

    public void eventDestroy(CudaEvent event) {
        call("cudaEventDestroy", eventDestroy, event.handle);
    }

    /** Milliseconds between two recorded events (resolution about 0.5 µs). */
    public float elapsedMs(CudaEvent start, CudaEvent end) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment ms = a.allocate(JAVA_FLOAT);
            check("cudaEventElapsedTime", (int) eventElapsed.invokeExact(ms, start.handle, end.handle));
            return ms.get(JAVA_FLOAT, 0);
        } catch (Throwable t) {
            throw wrap("cudaEventElapsedTime", t);
        }
    }

    private void call(String what, MethodHandle h, MemorySegment arg) {
        try {
            check(what, (int) h.invokeExact(arg));
        } catch (Throwable t) {
            throw wrap(what, t);
        }
    }

    private void check(String what, int rc) throws Throwable {
        if (rc != 0) {
            String msg = NativeLibrary.cString((MemorySegment) getErrorString.invokeExact(rc));
            throw new NativeCallException(NativeCallException.Library.CUDA, what, rc, msg);
        }
    }

    private static NativeCallException wrap(String what, Throwable t) {
        return t instanceof NativeCallException n ? n : new NativeCallException(what, t);
    }
}
