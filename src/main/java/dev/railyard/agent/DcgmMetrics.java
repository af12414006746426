package dev.railyard.agent;

import dev.railyard.model.Gpu;
import dev.railyard.model.GpuInventory;
import dev.railyard.model.NodeInventory;
import dev.railyard.model.Reading;
import dev.railyard.model.XidEvent;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * The GPU families under dcgm-exporter's names, help texts, units and labels (its etc/default-counters.csv), so its
 * dashboards and alerts work unchanged. Those it types as counters are counters here too, under their exact names
 * (no "_total" appended): energy, PCIe replays, NVLink bandwidth, the ECC and NVLink error totals, remapped rows.
 * docs/metrics.md lists each family, its NVML source, and what dcgm-exporter serves that this does not.
 */
final class DcgmMetrics {

    private static final double MIB = 1024.0 * 1024.0;

    private DcgmMetrics() {
    }

    /**
     * dcgm-exporter's pci_bus_id: NVML's form, an 8-digit domain and upper-case hex ("00000000:1B:00.0"), where the
     * inventory keeps sysfs's "0000:1b:00.0" to join PCI devices.
     */
    static String dcgmBusId(String pciAddress) {
        int colon = pciAddress.indexOf(':');
        if (colon < 0 || pciAddress.indexOf(':', colon + 1) < 0) return pciAddress.toUpperCase(Locale.ROOT);
        String domain = pciAddress.substring(0, colon);
        String padded = "0".repeat(Math.max(0, 8 - domain.length())) + domain;
        return (padded + pciAddress.substring(colon)).toUpperCase(Locale.ROOT);
    }

    /** dcgm-exporter's labels, in its order; DCGM_FI_DRIVER_VERSION is the default counters' one "label" field. */
    static String[] labels(Gpu g, String host, Reading<GpuInventory.NvmlSystem> nvml) {
        List<String> l = new ArrayList<>(List.of("gpu", String.valueOf(g.index()), "UUID", g.uuid().orElse(""),
                "pci_bus_id", dcgmBusId(g.pciAddress()), "device", "nvidia" + g.index(),
                "modelName", g.name().orElse(""), "Hostname", host));
        if (nvml instanceof Reading.Present<GpuInventory.NvmlSystem>(GpuInventory.NvmlSystem s)) {
            l.addAll(List.of("DCGM_FI_DRIVER_VERSION", s.driverVersion()));
        }
        return l.toArray(String[]::new);
    }

    static void write(MetricFamilies m, NodeInventory inv, String host) {
        m.gauge("railyard_nvml_up", "1 when NVML answered the last sample, 0 when it did not (driver gone, GPU lost).",
                inv.gpu().nvml().isPresent() ? 1 : 0);
        List<XidEvent> xids = inv.xidEvents().orElse(List.of());
        for (Gpu g : inv.gpu().gpus()) {
            String[] l = labels(g, host, inv.gpu().nvml());
            int last = xids.stream().filter(e -> e.concerns(g.pciAddress())).map(XidEvent::xid).reduce((a, b) -> b).orElse(0);
            m.gauge("DCGM_FI_DEV_XID_ERRORS", "Value of the last XID error encountered.", last, l);
            m.gauge("railyard_gpu_readable", "1 when NVML answered for this GPU (temperature read), 0 when not.",
                    g.temperatureC().isPresent() ? 1 : 0, l);
            clocksPowerHeat(m, g, l);
            activity(m, g.activity(), l);
            memoryAndErrors(m, g, l);
        }
    }

    private static void clocksPowerHeat(MetricFamilies m, Gpu g, String[] l) {
        set(g.smClockMhz(), v -> m.gauge("DCGM_FI_DEV_SM_CLOCK", "SM clock frequency (in MHz).", v, l));
        set(g.temperatureC(), v -> m.gauge("DCGM_FI_DEV_GPU_TEMP", "GPU temperature (in C).", v, l));
        set(g.slowdownTemperatureC(), v -> m.gauge("DCGM_FI_DEV_SLOWDOWN_TEMP", "Slowdown temperature threshold (in C).", v, l));
        set(g.powerWatts(), v -> m.gauge("DCGM_FI_DEV_POWER_USAGE", "Power draw (in W).", v, l));
        set(g.powerLimitWatts(), v -> m.gauge("DCGM_FI_DEV_POWER_MGMT_LIMIT", "Power management limit (in W).", v, l));
        set(g.clockEvents(), ev -> m.gauge("DCGM_FI_DEV_CLOCK_THROTTLE_REASONS", "Clock event (throttle) reasons, NVML bitmask.",
                ev.stream().mapToLong(e -> e.bit).reduce(0, (a, b) -> a | b), l));
    }

    private static void activity(MetricFamilies m, Gpu.Activity a, String[] l) {
        set(a.memoryClockMhz(), v -> m.gauge("DCGM_FI_DEV_MEM_CLOCK", "Memory clock frequency (in MHz).", v, l));
        set(a.memoryTemperatureC(), v -> m.gauge("DCGM_FI_DEV_MEMORY_TEMP", "Memory temperature (in C).", v, l));
        set(a.energyMillijoules(), v -> m.dcgmCounter("DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION",
                "Total energy consumption since boot (in mJ).", v, l));
        set(a.gpuUtilPercent(), v -> m.gauge("DCGM_FI_DEV_GPU_UTIL", "GPU utilization (in %).", v, l));
        set(a.memoryCopyUtilPercent(), v -> m.gauge("DCGM_FI_DEV_MEM_COPY_UTIL", "Memory utilization (in %).", v, l));
        set(a.encoderUtilPercent(), v -> m.gauge("DCGM_FI_DEV_ENC_UTIL", "Encoder utilization (in %).", v, l));
        set(a.decoderUtilPercent(), v -> m.gauge("DCGM_FI_DEV_DEC_UTIL", "Decoder utilization (in %).", v, l));
        set(a.pcieTxBytesPerSecond(), v -> m.gauge("DCGM_FI_PROF_PCIE_TX_BYTES",
                "The rate of data transmitted over the PCIe bus - including both protocol headers and data payloads - in bytes per second.", v, l));
        set(a.pcieRxBytesPerSecond(), v -> m.gauge("DCGM_FI_PROF_PCIE_RX_BYTES",
                "The rate of data received over the PCIe bus - including both protocol headers and data payloads - in bytes per second.", v, l));
        set(a.nvlinkDataKib(), v -> m.dcgmCounter("DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL",
                "Total number of NVLink bandwidth counters for all lanes.", v, l));
        set(a.profile(), p -> profile(m, p, l));
    }

    /** DCGM's profiling (DCP) fields, from NVML GPM over the last sampling interval. */
    private static void profile(MetricFamilies m, Gpu.Profile p, String[] l) {
        set(p.graphicsActive(), v -> m.gauge("DCGM_FI_PROF_GR_ENGINE_ACTIVE", "Ratio of time the graphics engine is active.", v, l));
        set(p.smActive(), v -> m.gauge("DCGM_FI_PROF_SM_ACTIVE", "The ratio of cycles an SM has at least 1 warp assigned.", v, l));
        set(p.smOccupancy(), v -> m.gauge("DCGM_FI_PROF_SM_OCCUPANCY", "The ratio of number of warps resident on an SM.", v, l));
        set(p.tensorActive(), v -> m.gauge("DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", "Ratio of cycles the tensor (HMMA) pipe is active.", v, l));
        set(p.dramActive(), v -> m.gauge("DCGM_FI_PROF_DRAM_ACTIVE",
                "Ratio of cycles the device memory interface is active sending or receiving data.", v, l));
        set(p.fp64Active(), v -> m.gauge("DCGM_FI_PROF_PIPE_FP64_ACTIVE", "Ratio of cycles the fp64 pipes are active.", v, l));
        set(p.fp32Active(), v -> m.gauge("DCGM_FI_PROF_PIPE_FP32_ACTIVE", "Ratio of cycles the fp32 pipes are active.", v, l));
        set(p.fp16Active(), v -> m.gauge("DCGM_FI_PROF_PIPE_FP16_ACTIVE", "Ratio of cycles the fp16 pipes are active.", v, l));
    }

    private static void memoryAndErrors(MetricFamilies m, Gpu g, String[] l) {
        set(g.memory(), mem -> {
            // whole MiB, as nvidia-smi and dcgm-exporter print them
            m.gauge("DCGM_FI_DEV_FB_FREE", "Framebuffer memory free (in MiB).", Math.floor(mem.freeBytes() / MIB), l);
            m.gauge("DCGM_FI_DEV_FB_USED", "Framebuffer memory used (in MiB).", Math.floor(mem.usedBytes() / MIB), l);
            set(mem.reservedBytes(), r -> m.gauge("DCGM_FI_DEV_FB_RESERVED", "Framebuffer memory reserved (in MiB).",
                    Math.floor(r / MIB), l));
        });
        set(g.pcieReplays(), v -> m.dcgmCounter("DCGM_FI_DEV_PCIE_REPLAY_COUNTER", "Total number of PCIe retries.", v, l));
        set(g.ecc(), e -> {
            m.dcgmCounter("DCGM_FI_DEV_ECC_SBE_VOL_TOTAL", "Total number of single-bit volatile ECC errors.", e.volatileCorrected(), l);
            m.dcgmCounter("DCGM_FI_DEV_ECC_DBE_VOL_TOTAL", "Total number of double-bit volatile ECC errors.", e.volatileUncorrected(), l);
            m.dcgmCounter("DCGM_FI_DEV_ECC_SBE_AGG_TOTAL", "Total number of single-bit persistent ECC errors.", e.aggregateCorrected(), l);
            m.dcgmCounter("DCGM_FI_DEV_ECC_DBE_AGG_TOTAL", "Total number of double-bit persistent ECC errors.", e.aggregateUncorrected(), l);
        });
        set(g.remappedRows(), r -> {
            m.dcgmCounter("DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS", "Number of remapped rows for uncorrectable errors", r.uncorrectable(), l);
            m.dcgmCounter("DCGM_FI_DEV_CORRECTABLE_REMAPPED_ROWS", "Number of remapped rows for correctable errors", r.correctable(), l);
            m.gauge("DCGM_FI_DEV_ROW_REMAP_FAILURE", "Whether remapping of rows has failed", r.failure() ? 1 : 0, l);
            m.gauge("DCGM_FI_DEV_ROW_REMAP_PENDING", "1 when a row remapping is pending (reset the GPU).", r.pending() ? 1 : 0, l);
        });
        set(g.pcieLink(), p -> {
            m.gauge("DCGM_FI_DEV_PCIE_LINK_GEN", "Current PCIe link generation.", p.currentGen(), l);
            m.gauge("DCGM_FI_DEV_PCIE_LINK_WIDTH", "Current PCIe link width.", p.currentWidth(), l);
        });
        set(g.nvlinks(), links -> {
            m.gauge("railyard_gpu_nvlink_links", "NVLinks the GPU has.", links.size(), l);
            m.gauge("railyard_gpu_nvlink_links_active", "NVLinks up.", links.stream().filter(Gpu.NvLink::active).count(), l);
        });
        set(g.nvlinkErrors(), links -> {
            // dcgm-exporter's *_TOTAL fields: the sum over the GPU's links
            m.dcgmCounter("DCGM_FI_DEV_NVLINK_REPLAY_ERROR_COUNT_TOTAL", "Total number of NVLink retries.",
                    links.stream().mapToLong(Gpu.NvLinkErrors::replay).sum(), l);
            m.dcgmCounter("DCGM_FI_DEV_NVLINK_RECOVERY_ERROR_COUNT_TOTAL", "Total number of NVLink recovery errors.",
                    links.stream().mapToLong(Gpu.NvLinkErrors::recovery).sum(), l);
            m.dcgmCounter("DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_COUNT_TOTAL", "Total number of NVLink flow-control CRC errors.",
                    links.stream().mapToLong(Gpu.NvLinkErrors::crcFlit).sum(), l);
            m.dcgmCounter("DCGM_FI_DEV_NVLINK_CRC_DATA_ERROR_COUNT_TOTAL", "Total number of NVLink data CRC errors.",
                    links.stream().mapToLong(Gpu.NvLinkErrors::crcData).sum(), l);
        });
    }

    private static <T> void set(Reading<T> r, Consumer<T> use) {
        if (r instanceof Reading.Present<T>(T v)) use.accept(v);
    }
}
