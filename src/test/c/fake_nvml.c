/*
 * A fake libnvidia-ml.so.1 for FfmNvmlTest: the NVML functions Railyard calls, with the struct layouts and enum
 * values of nvml.h (CUDA 12.6), over two made-up GPUs with known values.
 *   GPU 0: H100, every query answers; 18 NVLinks, link 3 down; clean ECC and row remapping.
 *   GPU 1: L40S-like PCIe card, NOT_SUPPORTED for slowdown temperature, power usage and NVLink, no permission
 *          for persistence mode, ECC errors and a failed row remap, a degraded PCIe link.
 * Test controls (not NVML): fake_nvml_set_clock_events and fake_nvml_set_uncorrected_ecc (per GPU, for burn),
 * fake_nvml_set_init_result, fake_nvml_set_lost_gpu, fake_nvml_refcount,
 * fake_nvml_set_gpu0_dbe (volatile uncorrected ECC errors on GPU 0, for the agent's fault injection),
 * fake_nvml_hold_shutdown (nvmlShutdown waits until released: proves who waits for it),
 * fake_nvml_gpm_samples_live (GPM sample buffers allocated and not freed), fake_nvml_calls and
 * fake_nvml_reset_calls (calls per NVML function).
 * FAKE_NVML_SLOW_READ_MS=N in the environment: from the second nvmlDeviceGetCount_v2 on, the call prints
 * "fake_nvml: slow read" to stderr and takes N ms. The library's destructor, run by the process's exit handlers,
 * marks the library torn down as the real driver's does; a call that is still running then aborts the process, as
 * a read inside the real NVML during exit crashes it (the agent must not exit with a read in flight).
 * Built with -DFAKE_NVML_ONE_GPU it lists GPU 0 only: a healthy node for the agent's end-to-end tests.
 * Built with -DFAKE_NVML_EIGHT_GPUS it lists eight H100-like GPUs on buses 0x1b, 0x2b, ... (the agent's footprint
 * benchmark: seed 004's 8-GPU node).
 * Built with -DFAKE_NVML_OLD_DRIVER it lacks nvmlSystemGetCudaDriverVersion_v2,
 * nvmlDeviceGetCurrentClocksEventReasons, nvmlDeviceGetRemappedRows and nvmlDeviceGetMemoryInfo_v2, like a pre-535
 * driver.
 * Activity: the field values' clock, energy and byte counters stand still until fake_nvml_advance_seconds moves
 * them: per second 700 J of energy, 2 GB of PCIe TX and 1 GB RX, 3 GiB of NVLink TX and 1 GiB RX (in KiB).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef int nvmlReturn_t;
typedef struct fake_device { int index; } *nvmlDevice_t;

typedef struct nvmlPciInfo_st {
    char busIdLegacy[16];
    unsigned int domain;
    unsigned int bus;
    unsigned int device;
    unsigned int pciDeviceId;
    unsigned int pciSubSystemId;
    char busId[32];
} nvmlPciInfo_t;

typedef struct nvmlMemory_st {
    unsigned long long total;
    unsigned long long free;
    unsigned long long used;
} nvmlMemory_t;

typedef struct nvmlMemory_v2_st {
    unsigned int version;
    unsigned long long total;
    unsigned long long reserved;
    unsigned long long free;
    unsigned long long used;
} nvmlMemory_v2_t;
#define nvmlMemory_v2 (unsigned int)(sizeof(nvmlMemory_v2_t) | (2 << 24U))

typedef struct nvmlUtilization_st {
    unsigned int gpu;
    unsigned int memory;
} nvmlUtilization_t;

typedef union nvmlValue_st {
    double dVal;
    unsigned int uiVal;
    unsigned long ulVal;
    unsigned long long ullVal;
    signed long long sllVal;
    signed int siVal;
    unsigned short usVal;
} nvmlValue_t;

typedef struct nvmlFieldValue_st {
    unsigned int fieldId;
    unsigned int scopeId;
    long long timestamp;
    long long latencyUsec;
    int valueType;
    nvmlReturn_t nvmlReturn;
    nvmlValue_t value;
} nvmlFieldValue_t;

enum {
    NVML_SUCCESS = 0, NVML_ERROR_UNINITIALIZED = 1, NVML_ERROR_INVALID_ARGUMENT = 2, NVML_ERROR_NOT_SUPPORTED = 3,
    NVML_ERROR_NO_PERMISSION = 4, NVML_ERROR_INSUFFICIENT_SIZE = 7, NVML_ERROR_DRIVER_NOT_LOADED = 9,
    NVML_ERROR_GPU_IS_LOST = 15, NVML_ERROR_ARGUMENT_VERSION_MISMATCH = 25, NVML_ERROR_UNKNOWN = 999
};

static struct fake_device devices[8] = {{0}, {1}, {2}, {3}, {4}, {5}, {6}, {7}};
static int refcount = 0;
static nvmlReturn_t init_result = NVML_SUCCESS;
static int lost_gpu = 0;
static unsigned long long gpu0_dbe = 0;
static volatile int hold_shutdown = 0;

void fake_nvml_set_init_result(int rc) { init_result = rc; }
void fake_nvml_set_lost_gpu(int on) { lost_gpu = on; }
void fake_nvml_set_gpu0_dbe(unsigned long long n) { gpu0_dbe = n; }
int fake_nvml_refcount(void) { return refcount; }

/* Per GPU (by index): clock-event reasons in place of the built-in answer (-1: keep it), and uncorrected ECC errors
 * added to its counts. FAKE_NVML_CLOCK_EVENTS="gpu:mask,..." (mask in hex) sets the first at load. */
static long long clock_events_of[8] = {-1, -1, -1, -1, -1, -1, -1, -1};
static unsigned long long dbe_of[8];
void fake_nvml_set_clock_events(int gpu, long long mask) { if (gpu >= 0 && gpu < 8) clock_events_of[gpu] = mask; }
void fake_nvml_set_uncorrected_ecc(int gpu, unsigned long long n) { if (gpu >= 0 && gpu < 8) dbe_of[gpu] = n; }

__attribute__((constructor)) static void clock_events_from_env(void) {
    const char *s = getenv("FAKE_NVML_CLOCK_EVENTS");
    while (s && *s) {
        char *end;
        long gpu = strtol(s, &end, 10);
        if (*end != ':') return;
        long long mask = strtoll(end + 1, &end, 16);
        fake_nvml_set_clock_events((int) gpu, mask);
        if (*end != ',') return;
        s = end + 1;
    }
}
void fake_nvml_hold_shutdown(int on) { hold_shutdown = on; }

/* Calls per NVML function since fake_nvml_reset_calls, so a test can count what a read costs (burn's one-second
 * sample must not make a full read). A spin lock guards the table: the agent's tests read from two threads. */
#define COUNTED_MAX 64
static struct { const char *name; long calls; } counted[COUNTED_MAX];
static char counted_lock;
static void count_call(const char *name) {
    while (__atomic_test_and_set(&counted_lock, __ATOMIC_ACQUIRE)) {}
    int i = 0;
    while (i < COUNTED_MAX && counted[i].name != 0 && strcmp(counted[i].name, name) != 0) i++;
    if (i < COUNTED_MAX) {
        counted[i].name = name;
        counted[i].calls++;
    }
    __atomic_clear(&counted_lock, __ATOMIC_RELEASE);
}
/* Calls of the named function, or of every function when name is NULL. */
long fake_nvml_calls(const char *name) {
    long n = 0;
    while (__atomic_test_and_set(&counted_lock, __ATOMIC_ACQUIRE)) {}
    for (int i = 0; i < COUNTED_MAX && counted[i].name != 0; i++) {
        if (name == 0 || strcmp(counted[i].name, name) == 0) n += counted[i].calls;
    }
    __atomic_clear(&counted_lock, __ATOMIC_RELEASE);
    return n;
}
void fake_nvml_reset_calls(void) {
    while (__atomic_test_and_set(&counted_lock, __ATOMIC_ACQUIRE)) {}
    for (int i = 0; i < COUNTED_MAX && counted[i].name != 0; i++) counted[i].calls = 0;
    __atomic_clear(&counted_lock, __ATOMIC_RELEASE);
}

/* Every device call checks that NVML is initialised and the handle is one this library gave out. */
static int dev_index(nvmlDevice_t d) {
    if (refcount <= 0) return -NVML_ERROR_UNINITIALIZED;
#ifdef FAKE_NVML_EIGHT_GPUS
    if (d < &devices[0] || d > &devices[7]) return -NVML_ERROR_INVALID_ARGUMENT;
    return 0; /* every GPU answers as the H100 (GPU 0); only the PCI identity differs (fake_gpu_number) */
#else
    if (d != &devices[0] && d != &devices[1]) return -NVML_ERROR_INVALID_ARGUMENT;
    return d->index;
#endif
}
#define DEVICE_OR_RETURN(d, i) int i = dev_index(d); if (i < 0) return -i
#define OUT_OR_RETURN(p) if ((p) == 0) return NVML_ERROR_INVALID_ARGUMENT

static nvmlReturn_t copy_string(const char *value, char *buf, unsigned int length) {
    if (buf == 0) return NVML_ERROR_INVALID_ARGUMENT;
    if (strlen(value) + 1 > length) return NVML_ERROR_INSUFFICIENT_SIZE;
    strcpy(buf, value);
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlInit_v2(void) {
    count_call(__func__);
    if (init_result != NVML_SUCCESS) return init_result;
    refcount++;
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlShutdown(void) {
    count_call(__func__);
    while (hold_shutdown) usleep(1000);
    if (refcount <= 0) return NVML_ERROR_UNINITIALIZED;
    refcount--;
    return NVML_SUCCESS;
}

const char *nvmlErrorString(nvmlReturn_t result) {
    switch (result) {
        case NVML_SUCCESS: return "Success";
        case NVML_ERROR_UNINITIALIZED: return "Uninitialized";
        case NVML_ERROR_INVALID_ARGUMENT: return "Invalid Argument";
        case NVML_ERROR_NOT_SUPPORTED: return "Not Supported";
        case NVML_ERROR_NO_PERMISSION: return "Insufficient Permissions";
        case NVML_ERROR_INSUFFICIENT_SIZE: return "Insufficient Size";
        case NVML_ERROR_DRIVER_NOT_LOADED: return "Driver Not Loaded";
        case NVML_ERROR_GPU_IS_LOST: return "GPU is lost";
        default: return "Unknown Error";
    }
}

nvmlReturn_t nvmlSystemGetDriverVersion(char *version, unsigned int length) {
    count_call(__func__);
    return refcount > 0 ? copy_string("550.90.07", version, length) : NVML_ERROR_UNINITIALIZED;
}

nvmlReturn_t nvmlSystemGetNVMLVersion(char *version, unsigned int length) {
    count_call(__func__);
    return refcount > 0 ? copy_string("12.550.90.07", version, length) : NVML_ERROR_UNINITIALIZED;
}

#ifndef FAKE_NVML_OLD_DRIVER
nvmlReturn_t nvmlSystemGetCudaDriverVersion_v2(int *v) { OUT_OR_RETURN(v); *v = 12040; return NVML_SUCCESS; }
#endif
nvmlReturn_t nvmlSystemGetCudaDriverVersion(int *v) { OUT_OR_RETURN(v); *v = 11080; return NVML_SUCCESS; }

static volatile int torn_down = 0;
static volatile int slow_in_call = 0;
static int count_calls = 0;

__attribute__((destructor)) static void fake_nvml_teardown(void) {
    torn_down = 1;
    /* the real library frees its state here; wait so that a call still running sees it */
    for (int i = 0; i < 3000 && slow_in_call; i++) usleep(1000);
}

static void slow_read_if_asked(void) {
    const char *ms = getenv("FAKE_NVML_SLOW_READ_MS");
    if (ms == 0 || ++count_calls < 2) return;
    slow_in_call = 1;
    fputs("fake_nvml: slow read\n", stderr);
    fflush(stderr);
    for (long i = 0; i < atol(ms) && !torn_down; i++) usleep(1000);
    if (torn_down) {
        fputs("fake_nvml: called after the library was torn down\n", stderr);
        abort();
    }
    slow_in_call = 0;
}

nvmlReturn_t nvmlDeviceGetCount_v2(unsigned int *count) {
    count_call(__func__);
    if (refcount <= 0) return NVML_ERROR_UNINITIALIZED;
    OUT_OR_RETURN(count);
    slow_read_if_asked();
#ifdef FAKE_NVML_ONE_GPU
    *count = 1;
#elif defined(FAKE_NVML_EIGHT_GPUS)
    *count = 8;
#else
    *count = lost_gpu ? 3 : 2;
#endif
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int index, nvmlDevice_t *device) {
    count_call(__func__);
    if (refcount <= 0) return NVML_ERROR_UNINITIALIZED;
    OUT_OR_RETURN(device);
#ifdef FAKE_NVML_EIGHT_GPUS
    if (index > 7) return NVML_ERROR_INVALID_ARGUMENT;
#else
    if (index == 2 && lost_gpu) return NVML_ERROR_GPU_IS_LOST;
    if (index > 1) return NVML_ERROR_INVALID_ARGUMENT;
#endif
    *device = &devices[index];
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t d, char *name, unsigned int length) {
    count_call(__func__);
    DEVICE_OR_RETURN(d, i);
    return copy_string(i == 0 ? "NVIDIA H100 80GB HBM3" : "NVIDIA L40S", name, length);
}

nvmlReturn_t nvmlDeviceGetUUID(nvmlDevice_t d, char *uuid, unsigned int length) {
    count_call(__func__);
    DEVICE_OR_RETURN(d, i);
#ifdef FAKE_NVML_EIGHT_GPUS
    char own[48];
    snprintf(own, sizeof own, "GPU-6b5f8a8e-0d9c-4f3e-9a52-1c2d3e4f5a6%d", d->index);
    return copy_string(own, uuid, length);
#endif
    return copy_string(i == 0 ? "GPU-6b5f8a8e-0d9c-4f3e-9a52-1c2d3e4f5a6b" : "GPU-0a1b2c3d-4e5f-6071-8293-a4b5c6d7e8f9",
                       uuid, length);
}

nvmlReturn_t nvmlDeviceGetPciInfo_v3(nvmlDevice_t d, nvmlPciInfo_t *pci) {
    count_call(__func__);
    DEVICE_OR_RETURN(d, i);
    OUT_OR_RETURN(pci);
    memset(pci, 0, sizeof *pci);
    pci->domain = 0;
    pci->bus = i == 0 ? 0x1b : 0x9a;
    pci->device = 0;
    pci->pciDeviceId = i == 0 ? 0x233010de : 0x26b910de;
    pci->pciSubSystemId = 0x16c110de;
    strcpy(pci->busIdLegacy, i == 0 ? "0000:1B:00.0" : "0000:9A:00.0");
    strcpy(pci->busId, i == 0 ? "00000000:1B:00.0" : "00000000:9A:00.0");
#ifdef FAKE_NVML_EIGHT_GPUS
    pci->bus = 0x1b + 0x10 * d->index;
    snprintf(pci->busIdLegacy, sizeof pci->busIdLegacy, "0000:%02X:00.0", pci->bus);
    snprintf(pci->busId, sizeof pci->busId, "00000000:%02X:00.0", pci->bus);
#endif
    return NVML_SUCCESS;
}

/* Reserved by the driver: 512 MiB on GPU 0, 384 MiB on GPU 1. The first version counts it in used, as NVML's does. */
static const unsigned long long reserved_bytes[2] = {536870912ULL, 402653184ULL};
static const unsigned long long used_bytes[2] = {557056000ULL, 1234567168ULL};

nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t d, nvmlMemory_t *m) {
    count_call(__func__);
    DEVICE_OR_RETURN(d, i);
    OUT_OR_RETURN(m);
    m->total = i == 0 ? 85520809984ULL : 48305799168ULL;
    m->used = used_bytes[i] + reserved_bytes[i];
    m->free = m->total - m->used;
    return NVML_SUCCESS;
}

#ifndef FAKE_NVML_OLD_DRIVER
nvmlReturn_t nvmlDeviceGetMemoryInfo_v2(nvmlDevice_t d, nvmlMemory_v2_t *m) {
    count_call(__func__);
    DEVICE_OR_RETURN(d, i);
    OUT_OR_RETURN(m);
    if (m->version != nvmlMemory_v2) return NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
    m->total = i == 0 ? 85520809984ULL : 48305799168ULL;
    m->reserved = reserved_bytes[i];
    m->used = used_bytes[i];
    m->free = m->total - m->reserved - m->used;
    return NVML_SUCCESS;
}
#endif

nvmlReturn_t nvmlDeviceGetUtilizationRates(nvmlDevice_t d, nvmlUtilization_t *u) {
    count_call(__func__);
    DEVICE_OR_RETURN(d, i);
    OUT_OR_RETURN(u);
    u->gpu = i == 0 ? 87 : 3;
    u->memory = i == 0 ? 41 : 1;
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetEncoderUtilization(nvmlDevice_t d, unsigned int *util, unsigned int *period) {
    count_call(__func__);
    DEVICE_OR_RETURN(d, i);
    if (!util || !period) return NVML_ERROR_INVALID_ARGUMENT;
    *util = i == 0 ? 0 : 12;
    *period = 167000;
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetDecoderUtilization(nvmlDevice_t d, unsigned int *util, unsigned int *period) {
    count_call(__func__);
    DEVICE_OR_RETURN(d, i);
    if (!util || !period) return NVML_ERROR_INVALID_ARGUMENT;
    *util = i == 0 ? 0 : 5;
    *period = 167000;
    return NVML_SUCCESS;
}

/* Field values: memory temperature (82), energy in mJ (83), NVLink data KiB summed over links (138/139, scope
 * UINT_MAX), PCIe byte counters (197/198). GPU 1 has no HBM temperature and no NVLink. */
static unsigned long long seconds = 1;

void fake_nvml_advance_seconds(unsigned int n) { seconds += n; }

nvmlReturn_t nvmlDeviceGetFieldValues(nvmlDevice_t d, int count, nvmlFieldValue_t *values) {
    count_call(__func__);
    DEVICE_OR_RETURN(d, i);
    if (count < 0 || (count > 0 && values == 0)) return NVML_ERROR_INVALID_ARGUMENT;
    unsigned long long k = seconds;
    for (int n = 0; n < count; n++) {
        nvmlFieldValue_t *v = &values[n];
        v->timestamp = 1764000000000000LL + (long long) k * 1000000LL;
        v->latencyUsec = 0;
        v->nvmlReturn = NVML_SUCCESS;
        v->valueType = 3; /* unsigned long long */
        switch (v->fieldId) {
            case 82:
                if (i == 1) { v->nvmlReturn = NVML_ERROR_NOT_SUPPORTED; break; }
                v->valueType = 1; v->value.uiVal = 41; break;
            case 83: v->value.ullVal = 5000000000ULL + k * 700000ULL; break;
            case 138: case 139:
                if (i == 1) { v->nvmlReturn = NVML_ERROR_NOT_SUPPORTED; break; }
                if (v->scopeId != 0xFFFFFFFFu) { v->nvmlReturn = NVML_ERROR_INVALID_ARGUMENT; break; }
                v->value.ullVal = k * (v->fieldId == 138 ? 3000000ULL : 1000000ULL); break;
            case 197: v->value.ullVal = k * 2000000000ULL; break;
            case 198: v->value.ullVal = k * 1000000000ULL; break;
            default: v->nvmlReturn = NVML_ERROR_INVALID_ARGUMENT;
        }
    }
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetTemperature(nvmlDevice_t d, int sensor, unsigned int *temp) {
    count_call(__func__);
    DEVICE_OR_RETURN(d, i);
    OUT_OR_RETURN(temp);
    if (sensor != 0) return NVML_ERROR_INVALID_ARGUMENT; /* NVML_TEMPERATURE_GPU */
    *temp = i == 0 ? 34 : 61;
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetTemperatureThreshold(nvmlDevice_t d, int threshold, unsigned int *temp) {
    count_call(__func__);
    DEVICE_OR_RETURN(d, i);
    OUT_OR_RETURN(temp);
    if (i == 1) return NVML_ERROR_NOT_SUPPORTED;
    if (threshold != 1) return NVML_ERROR_INVALID_ARGUMENT; /* NVML_TEMPERATURE_THRESHOLD_SLOWDOWN */
    *temp = 87;
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetPowerUsage(nvmlDevice_t d, unsigned int *mw) {
    count_call(__func__);
    DEVICE_OR_RETURN(d, i);
    OUT_OR_RETURN(mw);
    if (i == 1) return NVML_ERROR_NOT_SUPPORTED;
    *mw = 71234;
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetEnforcedPowerLimit(nvmlDevice_t d, unsigned int *mw) {
    count_call(__func__);
    DEVICE_OR_RETURN(d, i);
    OUT_OR_RETURN(mw);
    *mw = i == 0 ? 700000 : 350000;
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetClockInfo(nvmlDevice_t d, int type, unsigned int *mhz) {
    count_call(__func__);
    DEVICE_OR_RETURN(d, i);
    OUT_OR_RETURN(mhz);
    if (type == 2) { *mhz = i == 0 ? 2619 : 9001; return NVML_SUCCESS; } /* NVML_CLOCK_MEM */
    if (type != 1) return NVML_ERROR_INVALID_ARGUMENT; /* NVML_CLOCK_SM */
    *mhz = i == 0 ? 1980 : 2520;
    return NVML_SUCCESS;
}

#ifndef FAKE_NVML_OLD_DRIVER
nvmlReturn_t nvmlDeviceGetCurrentClocksEventReasons(nvmlDevice_t d, unsigned long long *mask) {
    count_call(__func__);
    DEVICE_OR_RETURN(d, i);
    OUT_OR_RETURN(mask);
    *mask = i == 0 ? 0x1ULL | 0x4ULL : 0x40ULL; /* idle + SW power cap; HW thermal slowdown */
    if (clock_events_of[d->index] >= 0) *mask = (unsigned long long) clock_events_of[d->index];
    return NVML_SUCCESS;
}
#endif

/* Deprecated name; in the new-driver build it answers differently so a test can tell which one was called. */
nvmlReturn_t nvmlDeviceGetCurrentClocksThrottleReasons(nvmlDevice_t d, unsigned long long *mask) {
    count_call(__func__);
    DEVICE_OR_RETURN(d, i);
    OUT_OR_RETURN(mask);
    *mask = 0x8ULL; /* HW slowdown */
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetTotalEccErrors(nvmlDevice_t d, int errorType, int counterType, unsigned long long *count) {
    count_call(__func__);
    DEVICE_OR_RETURN(d, i);
    OUT_OR_RETURN(count);
    if (errorType < 0 || errorType > 1 || counterType < 0 || counterType > 1) return NVML_ERROR_INVALID_ARGUMENT;
    /* [errorType: 0 corrected, 1 uncorrected][counterType: 0 volatile, 1 aggregate] */
    static const unsigned long long gpu1[2][2] = {{5, 17}, {2, 3}};
    *count = i == 0 ? (errorType == 1 ? gpu0_dbe : 0) : gpu1[errorType][counterType];
    if (errorType == 1) *count += dbe_of[d->index];
    return NVML_SUCCESS;
}

#ifndef FAKE_NVML_OLD_DRIVER
nvmlReturn_t nvmlDeviceGetRemappedRows(nvmlDevice_t d, unsigned int *corr, unsigned int *unc, unsigned int *pending,
                                       unsigned int *failure) {
    count_call(__func__);
    DEVICE_OR_RETURN(d, i);
    if (!corr || !unc || !pending || !failure) return NVML_ERROR_INVALID_ARGUMENT;
    *corr = i == 0 ? 0 : 1;
    *unc = i == 0 ? 0 : 2;
    *pending = i == 0 ? 0 : 1;
    *failure = i == 0 ? 0 : 1;
    return NVML_SUCCESS;
}
#endif

nvmlReturn_t nvmlDeviceGetCurrPcieLinkGeneration(nvmlDevice_t d, unsigned int *v) {
    count_call(__func__);
    DEVICE_OR_RETURN(d, i); OUT_OR_RETURN(v); *v = i == 0 ? 5 : 4; return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetMaxPcieLinkGeneration(nvmlDevice_t d, unsigned int *v) {
    count_call(__func__);
    DEVICE_OR_RETURN(d, i); OUT_OR_RETURN(v); *v = 5; return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetCurrPcieLinkWidth(nvmlDevice_t d, unsigned int *v) {
    count_call(__func__);
    DEVICE_OR_RETURN(d, i); OUT_OR_RETURN(v); *v = i == 0 ? 16 : 8; return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetMaxPcieLinkWidth(nvmlDevice_t d, unsigned int *v) {
    count_call(__func__);
    DEVICE_OR_RETURN(d, i); OUT_OR_RETURN(v); *v = 16; return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetNvLinkState(nvmlDevice_t d, unsigned int link, int *active) {
    count_call(__func__);
    DEVICE_OR_RETURN(d, i);
    OUT_OR_RETURN(active);
    if (i == 1) return NVML_ERROR_NOT_SUPPORTED;
    if (link >= 18) return NVML_ERROR_INVALID_ARGUMENT;
    *active = link == 3 ? 0 : 1;
    return NVML_SUCCESS;
}

/* GPU 0: 7 PCIe replays; GPU 1: not supported (an older board). */
nvmlReturn_t nvmlDeviceGetPcieReplayCounter(nvmlDevice_t d, unsigned int *value) {
    count_call(__func__);
    DEVICE_OR_RETURN(d, i);
    OUT_OR_RETURN(value);
    if (i == 1) return NVML_ERROR_NOT_SUPPORTED;
    *value = i == 0 ? 7 : 0;
    return NVML_SUCCESS;
}

/* Counter 0 replay, 1 recovery, 2 CRC flit, 3 CRC data: on GPU 0 link L reads L * 10 + counter; others 0. */
nvmlReturn_t nvmlDeviceGetNvLinkErrorCounter(nvmlDevice_t d, unsigned int link, int counter, unsigned long long *value) {
    count_call(__func__);
    DEVICE_OR_RETURN(d, i);
    OUT_OR_RETURN(value);
    if (i == 1) return NVML_ERROR_NOT_SUPPORTED;
    if (link >= 18 || counter < 0 || counter > 3) return NVML_ERROR_INVALID_ARGUMENT;
    *value = i == 0 ? (unsigned long long) link * 10 + (unsigned long long) counter : 0;
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetPersistenceMode(nvmlDevice_t d, int *mode) {
    count_call(__func__);
    DEVICE_OR_RETURN(d, i);
    OUT_OR_RETURN(mode);
    if (i == 1) return NVML_ERROR_NO_PERMISSION;
    *mode = 1;
    return NVML_SUCCESS;
}

/*
 * GPM (nvml.h's nvmlGpm*): GPU 0 (and every GPU of the eight) supports it, GPU 1 (L40S-like) does not; the old
 * driver has none of these functions. A sample records its device and when it was taken (a count of samples);
 * nvmlGpmMetricsGet needs two samples of one device, sample1 taken before sample2, and answers fixed percentages
 * per metric, NOT_SUPPORTED for a metric it does not know.
 */
static int gpm_samples_live = 0;
int fake_nvml_gpm_samples_live(void) { return gpm_samples_live; }

#ifndef FAKE_NVML_OLD_DRIVER
#include <stdlib.h>

typedef struct fake_gpm_sample { int device; int taken; unsigned long long at; } *nvmlGpmSample_t;

typedef struct {
    unsigned int metricId;
    nvmlReturn_t nvmlReturn;
    double value;
    struct { char *shortName; char *longName; char *unit; } metricInfo;
} nvmlGpmMetric_t;

typedef struct {
    unsigned int version;
    unsigned int numMetrics;
    nvmlGpmSample_t sample1;
    nvmlGpmSample_t sample2;
    nvmlGpmMetric_t metrics[98];
} nvmlGpmMetricsGet_t;

typedef struct { unsigned int version; unsigned int isSupportedDevice; } nvmlGpmSupport_t;

static unsigned long long gpm_taken = 0;

nvmlReturn_t nvmlGpmQueryDeviceSupport(nvmlDevice_t d, nvmlGpmSupport_t *support) {
    count_call(__func__);
    DEVICE_OR_RETURN(d, i);
    OUT_OR_RETURN(support);
    if (support->version != 1) return NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
    support->isSupportedDevice = i == 1 ? 0 : 1;
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlGpmSampleAlloc(nvmlGpmSample_t *sample) {
    count_call(__func__);
    OUT_OR_RETURN(sample);
    if (refcount <= 0) return NVML_ERROR_UNINITIALIZED;
    *sample = calloc(1, sizeof(struct fake_gpm_sample));
    if (*sample == 0) return NVML_ERROR_UNKNOWN;
    gpm_samples_live++;
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlGpmSampleFree(nvmlGpmSample_t sample) {
    count_call(__func__);
    if (sample == 0) return NVML_ERROR_INVALID_ARGUMENT;
    free(sample);
    gpm_samples_live--;
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlGpmSampleGet(nvmlDevice_t d, nvmlGpmSample_t sample) {
    count_call(__func__);
    DEVICE_OR_RETURN(d, i);
    OUT_OR_RETURN(sample);
    if (i == 1) return NVML_ERROR_NOT_SUPPORTED;
    sample->device = (int) (d - &devices[0]);
    sample->taken = 1;
    sample->at = ++gpm_taken;
    return NVML_SUCCESS;
}

/* NVML_GPM_METRIC_*: graphics 1, SM 2, SM occupancy 3, any tensor 5, DRAM bandwidth 10, FP64 11, FP32 12, FP16 13. */
static double gpm_percent(unsigned int id) {
    switch (id) {
        case 1: return 87.5;
        case 2: return 80.0;
        case 3: return 40.0;
        case 5: return 62.5;
        case 10: return 55.0;
        case 11: return 0.0;
        case 12: return 12.5;
        case 13: return 25.0;
        default: return -1;
    }
}

nvmlReturn_t nvmlGpmMetricsGet(nvmlGpmMetricsGet_t *get) {
    count_call(__func__);
    OUT_OR_RETURN(get);
    if (refcount <= 0) return NVML_ERROR_UNINITIALIZED;
    if (get->version != 1) return NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
    if (get->numMetrics > 98 || get->sample1 == 0 || get->sample2 == 0) return NVML_ERROR_INVALID_ARGUMENT;
    if (!get->sample1->taken || !get->sample2->taken || get->sample1->device != get->sample2->device
            || get->sample2->at <= get->sample1->at) return NVML_ERROR_INVALID_ARGUMENT;
    for (unsigned int m = 0; m < get->numMetrics; m++) {
        double v = gpm_percent(get->metrics[m].metricId);
        get->metrics[m].nvmlReturn = v < 0 ? NVML_ERROR_NOT_SUPPORTED : NVML_SUCCESS;
        get->metrics[m].value = v < 0 ? 0 : v;
    }
    return NVML_SUCCESS;
}
#endif
