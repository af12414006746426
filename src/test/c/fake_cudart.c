/*
 * A fake libcudart for the bench nccl tests: exactly the functions FfmCuda looks up, with host memory standing in
 * for device memory (cudaMalloc is malloc, copies are memcpy, every call completes at once).
 *   Devices: FAKE_CUDA_DEVICES (default 2), or fake_cuda_set_devices(n); device d's PCI bus id is 0000:1D:00.0 + d.
 *   Time: a stream has a clock that only launches advance (the fake NCCL adds FAKE_LAUNCH_NS per call, see
 *   fake_nccl.c); an event records its stream's clock, so cudaEventElapsedTime is deterministic.
 *   Memory: each device has FAKE_CUDA_MEM_BYTES (default 80 GiB) of which cudaMemGetInfo says all is free; a
 *   cudaMalloc larger than that fails with cudaErrorMemoryAllocation, as on a real GPU.
 *   Compute capability: FAKE_CUDA_CC (default 90) or fake_cuda_set_capability. Bus: FAKE_CUDA_BUS_FIRST and
 *   FAKE_CUDA_BUS_STRIDE (hex) or fake_cuda_set_bus; memory: also fake_cuda_set_memory.
 *   No driver: with FAKE_CUDA_NO_DRIVER=1, the calls that need the driver return cudaErrorInsufficientDriver (35),
 *   what the real runtime answers on a machine without an NVIDIA driver or with one older than itself.
 *   Trace: see fake_cudart.h.
 * Error codes and strings are the real ones (driver_types.h).
 */
#include "fake_cudart.h"

typedef int cudaError_t;
typedef struct fake_stream *cudaStream_t;
typedef struct fake_event *cudaEvent_t;

enum {
    cudaSuccess = 0, cudaErrorInvalidValue = 1, cudaErrorMemoryAllocation = 2, cudaErrorInsufficientDriver = 35,
    cudaErrorInvalidDevice = 101,
    cudaErrorInvalidResourceHandle = 400, cudaErrorPeerAccessAlreadyEnabled = 704
};

static int device_count = 2;
static int capability = 90; /* compute capability x 10: an H100 */
static int bus_first = 0x1D, bus_stride = 1;
static int no_driver = 0;
static size_t memory_bytes = (size_t) 80 << 30;
static __thread int current_device = 0;
static unsigned peer_enabled[32]; /* bit p of [d]: d has enabled access to p */

__attribute__((constructor)) static void devices_from_env(void) {
    const char *n = getenv("FAKE_CUDA_DEVICES");
    if (n && atoi(n) > 0 && atoi(n) <= 32) device_count = atoi(n);
    const char *nd = getenv("FAKE_CUDA_NO_DRIVER");
    no_driver = nd && strcmp(nd, "1") == 0;
    const char *m = getenv("FAKE_CUDA_MEM_BYTES");
    if (m && strtoull(m, NULL, 10) > 0) memory_bytes = (size_t) strtoull(m, NULL, 10);
    const char *cc = getenv("FAKE_CUDA_CC");
    if (cc && atoi(cc) > 0) capability = atoi(cc);
    const char *bf = getenv("FAKE_CUDA_BUS_FIRST");
    if (bf) bus_first = (int) strtol(bf, NULL, 16);
    const char *bs = getenv("FAKE_CUDA_BUS_STRIDE");
    if (bs) bus_stride = (int) strtol(bs, NULL, 16);
}

/* Test controls (not CUDA). */
void fake_cuda_set_devices(int n) { device_count = n < 1 ? 1 : n > 32 ? 32 : n; }
void fake_cuda_trace(const char *path) { fake_trace_open(path); }
void fake_cuda_set_memory(unsigned long long bytes) { memory_bytes = (size_t) bytes; }
void fake_cuda_set_capability(int cc) { capability = cc; }
/* Device d's bus is first + d x stride (hex), so a test can line the devices up with the fake NVML's. */
void fake_cuda_set_bus(int first, int stride) { bus_first = first; bus_stride = stride; }

const char *cudaGetErrorString(cudaError_t e) {
    fake_trace("cudaGetErrorString");
    switch (e) {
        case cudaSuccess: return "no error";
        case cudaErrorInvalidValue: return "invalid argument";
        case cudaErrorMemoryAllocation: return "out of memory";
        case cudaErrorInsufficientDriver: return "CUDA driver version is insufficient for CUDA runtime version";
        case cudaErrorInvalidDevice: return "invalid device ordinal";
        case cudaErrorInvalidResourceHandle: return "invalid resource handle";
        case cudaErrorPeerAccessAlreadyEnabled: return "peer access is already enabled";
        default: return "unrecognized error code";
    }
}

static int valid_device(int d) { return d >= 0 && d < device_count; }

cudaError_t cudaGetDeviceCount(int *n) {
    fake_trace("cudaGetDeviceCount");
    if (no_driver) return cudaErrorInsufficientDriver;
    if (!n) return cudaErrorInvalidValue;
    *n = device_count;
    return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int *value, int attribute, int d) {
    fake_trace("cudaDeviceGetAttribute");
    if (no_driver) return cudaErrorInsufficientDriver;
    if (!value) return cudaErrorInvalidValue;
    if (!valid_device(d)) return cudaErrorInvalidDevice;
    if (attribute == 75) *value = capability / 10;      /* cudaDevAttrComputeCapabilityMajor */
    else if (attribute == 76) *value = capability % 10; /* cudaDevAttrComputeCapabilityMinor */
    else return cudaErrorInvalidValue;
    return cudaSuccess;
}

cudaError_t cudaSetDevice(int d) {
    fake_trace("cudaSetDevice");
    if (no_driver) return cudaErrorInsufficientDriver;
    if (!valid_device(d)) return cudaErrorInvalidDevice;
    current_device = d;
    return cudaSuccess;
}

cudaError_t cudaRuntimeGetVersion(int *v) {
    fake_trace("cudaRuntimeGetVersion");
    if (!v) return cudaErrorInvalidValue;
    *v = 13000;
    return cudaSuccess;
}

cudaError_t cudaDeviceGetPCIBusId(char *buf, int len, int d) {
    fake_trace("cudaDeviceGetPCIBusId");
    if (!valid_device(d)) return cudaErrorInvalidDevice;
    if (!buf || len < 13) return cudaErrorInvalidValue;
    snprintf(buf, (size_t) len, "0000:%02X:00.0", bus_first + bus_stride * d);
    return cudaSuccess;
}

static cudaError_t alloc(void **p, size_t bytes) {
    if (!p) return cudaErrorInvalidValue;
    *p = malloc(bytes ? bytes : 1);
    if (!*p) return cudaErrorMemoryAllocation;
    memset(*p, 0xA5, bytes); /* like real device memory, fresh allocations hold no zeros a check could pass on */
    return cudaSuccess;
}

cudaError_t cudaMalloc(void **p, size_t bytes) {
    fake_trace("cudaMalloc");
    if (no_driver) return cudaErrorInsufficientDriver;
    if (bytes > memory_bytes) return cudaErrorMemoryAllocation;
    return alloc(p, bytes);
}

cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total_bytes) {
    fake_trace("cudaMemGetInfo");
    if (no_driver) return cudaErrorInsufficientDriver;
    if (!free_bytes || !total_bytes) return cudaErrorInvalidValue;
    *free_bytes = memory_bytes;
    *total_bytes = memory_bytes;
    return cudaSuccess;
}

cudaError_t cudaMallocHost(void **p, size_t bytes) {
    fake_trace("cudaMallocHost");
    return alloc(p, bytes);
}

cudaError_t cudaFree(void *p) {
    fake_trace("cudaFree");
    free(p);
    return cudaSuccess;
}

cudaError_t cudaFreeHost(void *p) {
    fake_trace("cudaFreeHost");
    free(p);
    return cudaSuccess;
}

cudaError_t cudaMemset(void *p, int value, size_t bytes) {
    fake_trace("cudaMemset");
    if (!p && bytes) return cudaErrorInvalidValue;
    memset(p, value, bytes);
    return cudaSuccess;
}

static cudaError_t copy(void *dst, const void *src, size_t bytes, int kind) {
    if (kind < 0 || kind > 4) return cudaErrorInvalidValue;
    if ((!dst || !src) && bytes) return cudaErrorInvalidValue;
    memmove(dst, src, bytes);
    return cudaSuccess;
}

static int valid_stream(cudaStream_t s) { return s == NULL || s->magic == FAKE_STREAM_MAGIC; }

cudaError_t cudaMemcpy(void *dst, const void *src, size_t bytes, int kind) {
    fake_trace("cudaMemcpy");
    return copy(dst, src, bytes, kind);
}

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t bytes, int kind, cudaStream_t s) {
    fake_trace("cudaMemcpyAsync");
    if (!valid_stream(s)) return cudaErrorInvalidResourceHandle;
    return copy(dst, src, bytes, kind);
}

cudaError_t cudaMemcpyPeerAsync(void *dst, int dstDevice, const void *src, int srcDevice, size_t bytes,
                                cudaStream_t s) {
    fake_trace("cudaMemcpyPeerAsync");
    if (!valid_device(dstDevice) || !valid_device(srcDevice)) return cudaErrorInvalidDevice;
    if (!valid_stream(s)) return cudaErrorInvalidResourceHandle;
    return copy(dst, src, bytes, 3);
}

cudaError_t cudaDeviceCanAccessPeer(int *can, int d, int peer) {
    fake_trace("cudaDeviceCanAccessPeer");
    if (!can) return cudaErrorInvalidValue;
    if (!valid_device(d) || !valid_device(peer)) return cudaErrorInvalidDevice;
    *can = d != peer;
    return cudaSuccess;
}

cudaError_t cudaDeviceEnablePeerAccess(int peer, unsigned flags) {
    fake_trace("cudaDeviceEnablePeerAccess");
    if (!valid_device(peer) || peer == current_device) return cudaErrorInvalidDevice;
    if (flags) return cudaErrorInvalidValue;
    if (peer_enabled[current_device] & (1U << peer)) return cudaErrorPeerAccessAlreadyEnabled;
    peer_enabled[current_device] |= 1U << peer;
    return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize(void) {
    fake_trace("cudaDeviceSynchronize");
    return cudaSuccess;
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned flags) {
    fake_trace("cudaStreamCreateWithFlags");
    if (!s || flags > 1) return cudaErrorInvalidValue;
    *s = calloc(1, sizeof **s);
    if (!*s) return cudaErrorMemoryAllocation;
    (*s)->magic = FAKE_STREAM_MAGIC;
    (*s)->device = current_device;
    return cudaSuccess;
}

cudaError_t cudaStreamSynchronize(cudaStream_t s) {
    fake_trace("cudaStreamSynchronize");
    return valid_stream(s) ? cudaSuccess : cudaErrorInvalidResourceHandle;
}

cudaError_t cudaEventCreate(cudaEvent_t *e) {
    fake_trace("cudaEventCreate");
    if (!e) return cudaErrorInvalidValue;
    *e = calloc(1, sizeof **e);
    if (!*e) return cudaErrorMemoryAllocation;
    (*e)->magic = FAKE_EVENT_MAGIC;
    return cudaSuccess;
}

static int valid_event(cudaEvent_t e) { return e && e->magic == FAKE_EVENT_MAGIC; }

cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s) {
    fake_trace_ptr("cudaEventRecord", e);
    if (!valid_event(e) || !valid_stream(s)) return cudaErrorInvalidResourceHandle;
    e->recorded = 1;
    e->clock_ns = s ? s->clock_ns : 0;
    return cudaSuccess;
}

cudaError_t cudaEventSynchronize(cudaEvent_t e) {
    fake_trace("cudaEventSynchronize");
    return valid_event(e) ? cudaSuccess : cudaErrorInvalidResourceHandle;
}

cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end) {
    fake_trace("cudaEventElapsedTime");
    if (!ms) return cudaErrorInvalidValue;
    if (!valid_event(start) || !valid_event(end) || !start->recorded || !end->recorded) {
        return cudaErrorInvalidResourceHandle;
    }
    *ms = (float) ((double) ((long long) (end->clock_ns - start->clock_ns)) / 1e6);
    return cudaSuccess;
}

cudaError_t cudaEventDestroy(cudaEvent_t e) {
    fake_trace("cudaEventDestroy");
    if (!valid_event(e)) return cudaErrorInvalidResourceHandle;
    e->magic = 0;
    free(e);
    return cudaSuccess;
}
