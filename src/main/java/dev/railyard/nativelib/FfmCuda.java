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
 * Pointers to device memory, streams and events are carried as MemorySegment addresses.
 */
public final class FfmCuda {

    public static final List<String> CANDIDATES = List.of("libcudart.so", "libcudart.so.13", "libcudart.so.12",
            "/usr/local/cuda/lib64/libcudart.so", "/usr/local/cuda-13.0/targets/x86_64-linux/lib/libcudart.so.13");

    public static final int H2D = 1;
    public static final int D2H = 2;
    public static final int D2D = 3;

    private final MethodHandle getErrorString, getDeviceCount, setDevice, malloc, free, memset, memcpy, memcpyAsync,
            streamCreate, streamSynchronize, eventCreate, eventRecord, eventSynchronize, eventElapsed, eventDestroy,
            mallocHost, freeHost, canAccessPeer, enablePeerAccess, memcpyPeerAsync, runtimeVersion, pciBusId,
            deviceSynchronize;

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

    public void setDevice(int device) {
        try {
            check("cudaSetDevice(" + device + ")", (int) setDevice.invokeExact(device));
        } catch (Throwable t) {
            throw wrap("cudaSetDevice", t);
        }
    }

    public MemorySegment malloc(long bytes) {
        return allocWith(malloc, "cudaMalloc(" + bytes + ")", bytes);
    }

    /** Page-locked host memory, needed for full-speed host<->device copies. */
    public MemorySegment mallocHost(long bytes) {
        return allocWith(mallocHost, "cudaMallocHost(" + bytes + ")", bytes).reinterpret(bytes);
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

    public void free(MemorySegment devicePtr) {
        call("cudaFree", free, devicePtr);
    }

    public void freeHost(MemorySegment hostPtr) {
        call("cudaFreeHost", freeHost, hostPtr);
    }

    public void memset(MemorySegment devicePtr, int value, long bytes) {
        try {
            check("cudaMemset", (int) memset.invokeExact(devicePtr, value, bytes));
        } catch (Throwable t) {
            throw wrap("cudaMemset", t);
        }
    }

    public void memcpy(MemorySegment dst, MemorySegment src, long bytes, int kind) {
        try {
            check("cudaMemcpy", (int) memcpy.invokeExact(dst, src, bytes, kind));
        } catch (Throwable t) {
            throw wrap("cudaMemcpy", t);
        }
    }

    public void memcpyAsync(MemorySegment dst, MemorySegment src, long bytes, int kind, MemorySegment stream) {
        try {
            check("cudaMemcpyAsync", (int) memcpyAsync.invokeExact(dst, src, bytes, kind, stream));
        } catch (Throwable t) {
            throw wrap("cudaMemcpyAsync", t);
        }
    }

    public void memcpyPeerAsync(MemorySegment dst, int dstDevice, MemorySegment src, int srcDevice, long bytes,
                                MemorySegment stream) {
        try {
            check("cudaMemcpyPeerAsync",
                    (int) memcpyPeerAsync.invokeExact(dst, dstDevice, src, srcDevice, bytes, stream));
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
    public MemorySegment streamCreate() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment p = a.allocate(ADDRESS);
            check("cudaStreamCreateWithFlags", (int) streamCreate.invokeExact(p, 1));
            return p.get(ADDRESS, 0);
        } catch (Throwable t) {
            throw wrap("cudaStreamCreateWithFlags", t);
        }
    }

    public void streamSynchronize(MemorySegment stream) {
        call("cudaStreamSynchronize", streamSynchronize, stream);
    }

    public void deviceSynchronize() {
        try {
            check("cudaDeviceSynchronize", (int) deviceSynchronize.invokeExact());
        } catch (Throwable t) {
            throw wrap("cudaDeviceSynchronize", t);
        }
    }

    public MemorySegment eventCreate() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment p = a.allocate(ADDRESS);
            check("cudaEventCreate", (int) eventCreate.invokeExact(p));
            return p.get(ADDRESS, 0);
        } catch (Throwable t) {
            throw wrap("cudaEventCreate", t);
        }
    }

    public void eventRecord(MemorySegment event, MemorySegment stream) {
        try {
            check("cudaEventRecord", (int) eventRecord.invokeExact(event, stream));
        } catch (Throwable t) {
            throw wrap("cudaEventRecord", t);
        }
    }

    public void eventSynchronize(MemorySegment event) {
        call("cudaEventSynchronize", eventSynchronize, event);
    }

    public void eventDestroy(MemorySegment event) {
        call("cudaEventDestroy", eventDestroy, event);
    }

    /** Milliseconds between two recorded events (resolution about 0.5 µs). */
    public float elapsedMs(MemorySegment start, MemorySegment end) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment ms = a.allocate(JAVA_FLOAT);
            check("cudaEventElapsedTime", (int) eventElapsed.invokeExact(ms, start, end));
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
            throw new NativeCallException(what + " failed: " + msg + " (cudaError " + rc + ")");
        }
    }

    private static NativeCallException wrap(String what, Throwable t) {
        return t instanceof NativeCallException n ? n : new NativeCallException(what + ": " + t, t);
    }
}
