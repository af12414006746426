package dev.railyard.nativelib;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.ValueLayout;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * The NVML functions Railyard calls, each with its C signature from nvml.h (CUDA 12.6 nvml.h). All are read-only
 * queries: nothing here sets clocks, power, persistence or compute mode, and nothing resets a GPU.
 * {@code nvmlReturn_t} and every enum argument are C ints; {@code nvmlDevice_t} is a pointer.
 */
enum NvmlSymbol {
    /** nvmlReturn_t nvmlInit_v2(void) */
    INIT_V2("nvmlInit_v2", FunctionDescriptor.of(JAVA_INT)),
    /** nvmlReturn_t nvmlShutdown(void) */
    SHUTDOWN("nvmlShutdown", FunctionDescriptor.of(JAVA_INT)),
    /** const char* nvmlErrorString(nvmlReturn_t result) */
    ERROR_STRING("nvmlErrorString", FunctionDescriptor.of(ADDRESS, JAVA_INT)),
    /** nvmlReturn_t nvmlSystemGetDriverVersion(char *version, unsigned int length) */
    SYSTEM_GET_DRIVER_VERSION("nvmlSystemGetDriverVersion", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT)),
    /** nvmlReturn_t nvmlSystemGetCudaDriverVersion_v2(int *cudaDriverVersion) */
    SYSTEM_GET_CUDA_DRIVER_VERSION_V2("nvmlSystemGetCudaDriverVersion_v2", FunctionDescriptor.of(JAVA_INT, ADDRESS)),
    /** nvmlReturn_t nvmlSystemGetCudaDriverVersion(int *cudaDriverVersion) */
    SYSTEM_GET_CUDA_DRIVER_VERSION("nvmlSystemGetCudaDriverVersion", FunctionDescriptor.of(JAVA_INT, ADDRESS)),
    /** nvmlReturn_t nvmlSystemGetNVMLVersion(char *version, unsigned int length) */
    SYSTEM_GET_NVML_VERSION("nvmlSystemGetNVMLVersion", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT)),
    /** nvmlReturn_t nvmlDeviceGetCount_v2(unsigned int *deviceCount) */
    DEVICE_GET_COUNT_V2("nvmlDeviceGetCount_v2", FunctionDescriptor.of(JAVA_INT, ADDRESS)),
    /** nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int index, nvmlDevice_t *device) */
    DEVICE_GET_HANDLE_BY_INDEX_V2("nvmlDeviceGetHandleByIndex_v2", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS)),
    /** nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t device, char *name, unsigned int length) */
    DEVICE_GET_NAME("nvmlDeviceGetName", deviceBuffer()),
    /** nvmlReturn_t nvmlDeviceGetUUID(nvmlDevice_t device, char *uuid, unsigned int length) */
    DEVICE_GET_UUID("nvmlDeviceGetUUID", deviceBuffer()),
    /** nvmlReturn_t nvmlDeviceGetPciInfo_v3(nvmlDevice_t device, nvmlPciInfo_t *pci) */
    DEVICE_GET_PCI_INFO_V3("nvmlDeviceGetPciInfo_v3", deviceOut()),
    /** nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t device, nvmlMemory_t *memory) */
    DEVICE_GET_MEMORY_INFO("nvmlDeviceGetMemoryInfo", deviceOut()),
    /** nvmlReturn_t nvmlDeviceGetTemperature(nvmlDevice_t, nvmlTemperatureSensors_t sensorType, unsigned int *temp) */
    DEVICE_GET_TEMPERATURE("nvmlDeviceGetTemperature", deviceIntOut()),
    /** nvmlReturn_t nvmlDeviceGetTemperatureThreshold(nvmlDevice_t, nvmlTemperatureThresholds_t, unsigned int *temp) */
    DEVICE_GET_TEMPERATURE_THRESHOLD("nvmlDeviceGetTemperatureThreshold", deviceIntOut()),
    /** nvmlReturn_t nvmlDeviceGetPowerUsage(nvmlDevice_t device, unsigned int *power) -- milliwatts */
    DEVICE_GET_POWER_USAGE("nvmlDeviceGetPowerUsage", deviceOut()),
    /** nvmlReturn_t nvmlDeviceGetEnforcedPowerLimit(nvmlDevice_t device, unsigned int *limit) -- milliwatts */
    DEVICE_GET_ENFORCED_POWER_LIMIT("nvmlDeviceGetEnforcedPowerLimit", deviceOut()),
    /** nvmlReturn_t nvmlDeviceGetClockInfo(nvmlDevice_t device, nvmlClockType_t type, unsigned int *clock) -- MHz */
    DEVICE_GET_CLOCK_INFO("nvmlDeviceGetClockInfo", deviceIntOut()),
    /** nvmlReturn_t nvmlDeviceGetCurrentClocksEventReasons(nvmlDevice_t, unsigned long long *clocksEventReasons) */
    DEVICE_GET_CURRENT_CLOCKS_EVENT_REASONS("nvmlDeviceGetCurrentClocksEventReasons", deviceOut()),
    /** Deprecated name of the above, the only one in drivers before 535. */
    DEVICE_GET_CURRENT_CLOCKS_THROTTLE_REASONS("nvmlDeviceGetCurrentClocksThrottleReasons", deviceOut()),
    /**
     * nvmlReturn_t nvmlDeviceGetTotalEccErrors(nvmlDevice_t device, nvmlMemoryErrorType_t errorType,
     * nvmlEccCounterType_t counterType, unsigned long long *eccCounts)
     */
    DEVICE_GET_TOTAL_ECC_ERRORS("nvmlDeviceGetTotalEccErrors",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS)),
    /**
     * nvmlReturn_t nvmlDeviceGetRemappedRows(nvmlDevice_t device, unsigned int *corrRows, unsigned int *uncRows,
     * unsigned int *isPending, unsigned int *failureOccurred)
     */
    DEVICE_GET_REMAPPED_ROWS("nvmlDeviceGetRemappedRows",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS)),
    /** nvmlReturn_t nvmlDeviceGetCurrPcieLinkGeneration(nvmlDevice_t device, unsigned int *currLinkGen) */
    DEVICE_GET_CURR_PCIE_LINK_GENERATION("nvmlDeviceGetCurrPcieLinkGeneration", deviceOut()),
    /** nvmlReturn_t nvmlDeviceGetMaxPcieLinkGeneration(nvmlDevice_t device, unsigned int *maxLinkGen) */
    DEVICE_GET_MAX_PCIE_LINK_GENERATION("nvmlDeviceGetMaxPcieLinkGeneration", deviceOut()),
    /** nvmlReturn_t nvmlDeviceGetCurrPcieLinkWidth(nvmlDevice_t device, unsigned int *currLinkWidth) */
    DEVICE_GET_CURR_PCIE_LINK_WIDTH("nvmlDeviceGetCurrPcieLinkWidth", deviceOut()),
    /** nvmlReturn_t nvmlDeviceGetMaxPcieLinkWidth(nvmlDevice_t device, unsigned int *maxLinkWidth) */
    DEVICE_GET_MAX_PCIE_LINK_WIDTH("nvmlDeviceGetMaxPcieLinkWidth", deviceOut()),
    /** nvmlReturn_t nvmlDeviceGetNvLinkState(nvmlDevice_t device, unsigned int link, nvmlEnableState_t *isActive) */
    DEVICE_GET_NVLINK_STATE("nvmlDeviceGetNvLinkState", deviceIntOut()),
    /**
     * nvmlReturn_t nvmlDeviceGetNvLinkErrorCounter(nvmlDevice_t device, unsigned int link,
     * nvmlNvLinkErrorCounter_t counter, unsigned long long *counterValue)
     */
    DEVICE_GET_NVLINK_ERROR_COUNTER("nvmlDeviceGetNvLinkErrorCounter",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS)),
    /** nvmlReturn_t nvmlDeviceGetPcieReplayCounter(nvmlDevice_t device, unsigned int *value) */
    DEVICE_GET_PCIE_REPLAY_COUNTER("nvmlDeviceGetPcieReplayCounter", deviceOut()),
    /** nvmlReturn_t nvmlDeviceGetPersistenceMode(nvmlDevice_t device, nvmlEnableState_t *mode) */
    DEVICE_GET_PERSISTENCE_MODE("nvmlDeviceGetPersistenceMode", deviceOut()),
    /** nvmlReturn_t nvmlDeviceGetMemoryInfo_v2(nvmlDevice_t device, nvmlMemory_v2_t *memory) -- reserved apart */
    DEVICE_GET_MEMORY_INFO_V2("nvmlDeviceGetMemoryInfo_v2", deviceOut()),
    /** nvmlReturn_t nvmlDeviceGetUtilizationRates(nvmlDevice_t device, nvmlUtilization_t *utilization) */
    DEVICE_GET_UTILIZATION_RATES("nvmlDeviceGetUtilizationRates", deviceOut()),
    /** nvmlReturn_t nvmlDeviceGetEncoderUtilization(nvmlDevice_t, unsigned int *utilization, unsigned int *samplingPeriodUs) */
    DEVICE_GET_ENCODER_UTILIZATION("nvmlDeviceGetEncoderUtilization",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS)),
    /** nvmlReturn_t nvmlDeviceGetDecoderUtilization(nvmlDevice_t, unsigned int *utilization, unsigned int *samplingPeriodUs) */
    DEVICE_GET_DECODER_UTILIZATION("nvmlDeviceGetDecoderUtilization",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS)),
    /** nvmlReturn_t nvmlDeviceGetFieldValues(nvmlDevice_t device, int valuesCount, nvmlFieldValue_t *values) */
    DEVICE_GET_FIELD_VALUES("nvmlDeviceGetFieldValues", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS)),
    /** nvmlReturn_t nvmlGpmQueryDeviceSupport(nvmlDevice_t device, nvmlGpmSupport_t *gpmSupport) */
    GPM_QUERY_DEVICE_SUPPORT("nvmlGpmQueryDeviceSupport", deviceOut()),
    /** nvmlReturn_t nvmlGpmSampleAlloc(nvmlGpmSample_t *gpmSample) */
    GPM_SAMPLE_ALLOC("nvmlGpmSampleAlloc", FunctionDescriptor.of(JAVA_INT, ADDRESS)),
    /** nvmlReturn_t nvmlGpmSampleGet(nvmlDevice_t device, nvmlGpmSample_t gpmSample) */
    GPM_SAMPLE_GET("nvmlGpmSampleGet", deviceOut()),
    /** nvmlReturn_t nvmlGpmMetricsGet(nvmlGpmMetricsGet_t *metricsGet) */
    GPM_METRICS_GET("nvmlGpmMetricsGet", FunctionDescriptor.of(JAVA_INT, ADDRESS));

    final String cName;
    final FunctionDescriptor descriptor;

    NvmlSymbol(String cName, FunctionDescriptor descriptor) {
        this.cName = cName;
        this.descriptor = descriptor;
    }

    private static FunctionDescriptor deviceOut() {
        return FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS);
    }

    private static FunctionDescriptor deviceIntOut() {
        return FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS);
    }

    private static FunctionDescriptor deviceBuffer() {
        return FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ValueLayout.JAVA_INT);
    }
}
