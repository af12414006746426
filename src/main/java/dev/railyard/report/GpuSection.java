package dev.railyard.report;

import dev.railyard.model.Gpu;
import dev.railyard.model.GpuInventory;
import dev.railyard.model.GpuInventory.NvmlSystem;
import dev.railyard.model.Reading;

import java.util.List;
import java.util.stream.Collectors;

/** GPUs: the driver facts once, then two lines per GPU (identity, then health and links). */
final class GpuSection {

    private GpuSection() {
    }

    static void appendTo(StringBuilder out, GpuInventory inv) {
        out.append("GPUs (").append(inv.gpus().size()).append(")\n");
        out.append("  NVML: ").append(nvml(inv.nvml())).append('\n');
        if (inv.gpus().isEmpty()) {
            out.append("  none found (no NVIDIA display or 3D controller on PCI)\n");
            return;
        }
        for (Gpu g : inv.gpus()) {
            if (g.source() == Gpu.Source.PCI_SYSFS) pciOnly(out, g);
            else full(out, g);
        }
    }

    /** Absent as its bare reason: the collector already words it "NVML unavailable: ...". */
    private static String nvml(Reading<NvmlSystem> r) {
        return switch (r) {
            case Reading.Present<NvmlSystem>(NvmlSystem s) ->
                    "driver " + s.driverVersion() + ", CUDA " + s.cudaVersion() + ", NVML " + s.nvmlVersion();
            case Reading.Absent<NvmlSystem>(String reason) -> reason;
            case Reading.Failed<NvmlSystem> f -> f.describe();
        };
    }

    /**
     * A GPU seen only on PCI has every NVML reading absent for one reason; it is said once rather than per field.
     * The name is kept in case a reader ever fills it from the PCI id.
     */
    private static void pciOnly(StringBuilder out, Gpu g) {
        out.append("  GPU").append(g.index()).append("  ").append(g.pciAddress()).append("  (from PCI sysfs only)  PCIe ")
                .append(ReadingText.of(g.pcieLink(), ReadingText::link)).append('\n');
        String reason = g.uuid() instanceof Reading.Absent<String>(String why) ? why : g.uuid().describe();
        out.append("        NVML readings absent: ").append(reason).append('\n');
    }

    private static void full(StringBuilder out, Gpu g) {
        out.append("  GPU").append(g.index()).append("  ").append(ReadingText.of(g.name())).append("  ")
                .append(g.pciAddress()).append("  ").append(ReadingText.of(g.uuid()))
                .append("  persistence ").append(ReadingText.of(g.persistenceMode(), p -> p ? "on" : "off"))
                .append('\n');
        out.append("        ").append(String.join("  ", List.of(
                "temp " + ReadingText.of(g.temperatureC(), t -> t + " C")
                        + " (slowdown " + ReadingText.of(g.slowdownTemperatureC(), t -> t + " C") + ")",
                "power " + ReadingText.of(g.powerWatts(), ReadingText::number)
                        + " / " + ReadingText.of(g.powerLimitWatts(), w -> ReadingText.number(w) + " W"),
                "SM " + ReadingText.of(g.smClockMhz(), m -> m + " MHz"),
                "mem " + ReadingText.of(g.memory(), m -> ReadingText.bytes(m.usedBytes()) + " / "
                        + ReadingText.bytes(m.totalBytes())),
                "PCIe " + ReadingText.of(g.pcieLink(), ReadingText::link)))).append('\n');
        out.append("        ").append(String.join("  ", List.of(
                "ECC " + ReadingText.of(g.ecc(), e -> "volatile " + e.volatileCorrected() + "/" + e.volatileUncorrected()
                        + " aggregate " + e.aggregateCorrected() + "/" + e.aggregateUncorrected() + " (corr/uncorr)"),
                "remapped rows " + ReadingText.of(g.remappedRows(), GpuSection::remapped),
                "NVLinks " + ReadingText.of(g.nvlinks(), GpuSection::nvlinks),
                "clock events " + ReadingText.of(g.clockEvents(), GpuSection::events)))).append('\n');
    }

    private static String remapped(Gpu.RemappedRows r) {
        return r.correctable() + "/" + r.uncorrectable() + " (corr/uncorr)"
                + (r.pending() ? " PENDING (reset the GPU)" : "") + (r.failure() ? " FAILED (replace the GPU)" : "");
    }

    private static String nvlinks(List<Gpu.NvLink> links) {
        if (links.isEmpty()) return "none";
        long up = links.stream().filter(Gpu.NvLink::active).count();
        String down = links.stream().filter(l -> !l.active()).map(l -> String.valueOf(l.link()))
                .collect(Collectors.joining(","));
        return up + "/" + links.size() + " up" + (down.isEmpty() ? "" : " (down: " + down + ")");
    }

    private static String events(List<Gpu.ClockEvent> events) {
        return events.isEmpty() ? "none" : events.stream().map(Enum::name).collect(Collectors.joining(","));
    }
}
