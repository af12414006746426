package dev.railyard.nativelib;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.nio.charset.StandardCharsets;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/** Struct layouts, buffer sizes and enum values from nvml.h (checked against the CUDA 12.6 header). */
final class NvmlLayouts {

    /** NVML_DEVICE_NAME_V2_BUFFER_SIZE; also enough for NVML_DEVICE_UUID_V2_BUFFER_SIZE (96). */
    static final int NAME_BUFFER = 96;
    static final int UUID_BUFFER = 96;
    /** NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE and NVML_SYSTEM_NVML_VERSION_BUFFER_SIZE. */
    static final int VERSION_BUFFER = 80;
    /** NVML_NVLINK_MAX_LINKS. */
    static final int NVLINK_MAX_LINKS = 18;

    static final int TEMPERATURE_GPU = 0;                  // nvmlTemperatureSensors_t
    static final int TEMPERATURE_THRESHOLD_SLOWDOWN = 1;   // nvmlTemperatureThresholds_t
    static final int CLOCK_SM = 1;                         // nvmlClockType_t
    static final int CLOCK_MEM = 2;
    static final int MEMORY_ERROR_TYPE_CORRECTED = 0;      // nvmlMemoryErrorType_t
    static final int MEMORY_ERROR_TYPE_UNCORRECTED = 1;
    static final int VOLATILE_ECC = 0;                     // nvmlEccCounterType_t
    static final int AGGREGATE_ECC = 1;
    static final int FEATURE_ENABLED = 1;                  // nvmlEnableState_t

    /**
     * nvmlPciInfo_t: char busIdLegacy[16]; unsigned int domain, bus, device, pciDeviceId, pciSubSystemId;
     * char busId[32]. 68 bytes, 4-byte aligned.
     */
    static final StructLayout PCI_INFO = MemoryLayout.structLayout(
            MemoryLayout.sequenceLayout(16, JAVA_BYTE).withName("busIdLegacy"),
            JAVA_INT.withName("domain"),
            JAVA_INT.withName("bus"),
            JAVA_INT.withName("device"),
            JAVA_INT.withName("pciDeviceId"),
            JAVA_INT.withName("pciSubSystemId"),
            MemoryLayout.sequenceLayout(32, JAVA_BYTE).withName("busId"));
    static final long PCI_BUS_ID_OFFSET = PCI_INFO.byteOffset(groupElement("busId"));
    static final long PCI_BUS_ID_SIZE = 32;

    /** nvmlMemory_t: unsigned long long total, free, used (bytes). */
    static final StructLayout MEMORY = MemoryLayout.structLayout(
            JAVA_LONG.withName("total"), JAVA_LONG.withName("free"), JAVA_LONG.withName("used"));
    static final long MEMORY_TOTAL_OFFSET = MEMORY.byteOffset(groupElement("total"));
    static final long MEMORY_USED_OFFSET = MEMORY.byteOffset(groupElement("used"));

    /**
     * nvmlMemory_v2_t: unsigned int version; unsigned long long total, reserved, free, used (bytes). 40 bytes; the
     * version is NVML_STRUCT_VERSION(Memory, 2), the struct's size with 2 in the top byte.
     */
    static final StructLayout MEMORY_V2 = MemoryLayout.structLayout(
            JAVA_INT.withName("version"), MemoryLayout.paddingLayout(4),
            JAVA_LONG.withName("total"), JAVA_LONG.withName("reserved"), JAVA_LONG.withName("free"),
            JAVA_LONG.withName("used"));
    static final int MEMORY_V2_VERSION = (int) MEMORY_V2.byteSize() | (2 << 24);
    static final long MEMORY_V2_TOTAL_OFFSET = MEMORY_V2.byteOffset(groupElement("total"));
    static final long MEMORY_V2_RESERVED_OFFSET = MEMORY_V2.byteOffset(groupElement("reserved"));
    static final long MEMORY_V2_FREE_OFFSET = MEMORY_V2.byteOffset(groupElement("free"));
    static final long MEMORY_V2_USED_OFFSET = MEMORY_V2.byteOffset(groupElement("used"));

    /**
     * nvmlFieldValue_t: unsigned int fieldId, scopeId; long long timestamp (us), latencyUsec; nvmlValueType_t
     * valueType; nvmlReturn_t nvmlReturn; nvmlValue_t value (an 8-byte union). 40 bytes, 8-byte aligned.
     */
    static final StructLayout FIELD_VALUE = MemoryLayout.structLayout(
            JAVA_INT.withName("fieldId"), JAVA_INT.withName("scopeId"),
            JAVA_LONG.withName("timestamp"), JAVA_LONG.withName("latencyUsec"),
            JAVA_INT.withName("valueType"), JAVA_INT.withName("nvmlReturn"),
            JAVA_LONG.withName("value"));
    static final long FIELD_ID_OFFSET = FIELD_VALUE.byteOffset(groupElement("fieldId"));
    static final long FIELD_SCOPE_OFFSET = FIELD_VALUE.byteOffset(groupElement("scopeId"));
    static final long FIELD_TIMESTAMP_OFFSET = FIELD_VALUE.byteOffset(groupElement("timestamp"));
    static final long FIELD_TYPE_OFFSET = FIELD_VALUE.byteOffset(groupElement("valueType"));
    static final long FIELD_RETURN_OFFSET = FIELD_VALUE.byteOffset(groupElement("nvmlReturn"));
    static final long FIELD_VALUE_OFFSET = FIELD_VALUE.byteOffset(groupElement("value"));
    /** nvmlValueType_t: double, unsigned int, unsigned long, unsigned long long, signed long long, signed int, unsigned short. */
    static final int VALUE_TYPE_DOUBLE = 0;
    static final int VALUE_TYPE_UNSIGNED_INT = 1;
    static final int VALUE_TYPE_SIGNED_INT = 5;
    static final int VALUE_TYPE_UNSIGNED_SHORT = 6;
    /** The scopeId that asks an NVLink throughput field for the sum over all links. */
    static final int SCOPE_ALL_LINKS = -1;

    /** Field IDs (NVML_FI_DEV_*) of nvml.h. */
    static final int FI_MEMORY_TEMP = 82;
    static final int FI_TOTAL_ENERGY_CONSUMPTION = 83;
    static final int FI_NVLINK_THROUGHPUT_DATA_TX = 138;
    static final int FI_NVLINK_THROUGHPUT_DATA_RX = 139;
    static final int FI_PCIE_COUNT_TX_BYTES = 197;
    static final int FI_PCIE_COUNT_RX_BYTES = 198;

    /** nvmlGpmSupport_t: unsigned int version (NVML_GPM_SUPPORT_VERSION, 1), isSupportedDevice. */
    static final int GPM_SUPPORT_VERSION = 1;
    static final long GPM_SUPPORT_SIZE = 8;
    static final long GPM_SUPPORTED_OFFSET = 4;

    /**
     * nvmlGpmMetric_t: unsigned int metricId; nvmlReturn_t nvmlReturn; double value; and metricInfo's three char
     * pointers (shortName, longName, unit). 40 bytes.
     */
    static final StructLayout GPM_METRIC = MemoryLayout.structLayout(
            JAVA_INT.withName("metricId"), JAVA_INT.withName("nvmlReturn"), JAVA_DOUBLE.withName("value"),
            ADDRESS.withName("shortName"), ADDRESS.withName("longName"), ADDRESS.withName("unit"));
    static final long GPM_METRIC_ID_OFFSET = GPM_METRIC.byteOffset(groupElement("metricId"));
    static final long GPM_METRIC_RETURN_OFFSET = GPM_METRIC.byteOffset(groupElement("nvmlReturn"));
    static final long GPM_METRIC_VALUE_OFFSET = GPM_METRIC.byteOffset(groupElement("value"));
    /**
     * nvmlGpmMetricsGet_t: unsigned int version (NVML_GPM_METRICS_GET_VERSION, 1), numMetrics; nvmlGpmSample_t
     * sample1, sample2; nvmlGpmMetric_t metrics[NVML_GPM_METRIC_MAX]. NVML_GPM_METRIC_MAX grew under the same struct
     * version (98 in CUDA 12's nvml.h, 210 in CUDA 13's with driver 580): the buffer has room for 256, so a library
     * that touches its whole array never writes past ours. NVML reads numMetrics entries.
     */
    static final int GPM_METRICS_GET_VERSION = 1;
    static final int GPM_METRIC_MAX = 256;
    static final long GPM_GET_SAMPLE1_OFFSET = 8;
    static final long GPM_GET_SAMPLE2_OFFSET = 16;
    static final long GPM_GET_METRICS_OFFSET = 24;
    static final long GPM_GET_SIZE = GPM_GET_METRICS_OFFSET + GPM_METRIC_MAX * GPM_METRIC.byteSize();

    private NvmlLayouts() {}

    /** A C string in a fixed buffer; a buffer with no NUL is taken whole rather than read past its end. */
    static String cString(MemorySegment buffer) {
        long n = 0;
        while (n < buffer.byteSize() && buffer.get(JAVA_BYTE, n) != 0) n++;
        byte[] bytes = buffer.asSlice(0, n).toArray(JAVA_BYTE);
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
