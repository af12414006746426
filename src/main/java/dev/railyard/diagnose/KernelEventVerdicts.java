package dev.railyard.diagnose;

import dev.railyard.bench.ibtools.KernelEvent;
import dev.railyard.check.Fix;
import dev.railyard.check.ShellWord;
import dev.railyard.check.rules.GpuDriverRule;
import dev.railyard.check.rules.HostMemoryEccRule;
import dev.railyard.check.rules.HostPcieAerRule;
import dev.railyard.check.rules.HostPcieLinkRule;
import dev.railyard.check.rules.HostModuleRdmaRule;
import dev.railyard.check.rules.Verdict;
import dev.railyard.model.CheckId;
import dev.railyard.model.Severity;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The kernel's hardware error reports as verdicts: one per kind and device, counting its repeats, with the line of
 * the first as evidence. Corrected errors were repaired by the hardware (WARN: a marginal part); uncorrected ones and
 * a device the driver could not bring up are FAILs.
 */
final class KernelEventVerdicts {

    /** Drivers of the GPUs and NICs Railyard looks after; another device's failed probe is only a WARN here. */
    private static final Set<String> OUR_DRIVERS = Set.of("mlx4_core", "mlx5_core", "mlx5_ib", "mlx4_ib", "nvidia",
            "bnxt_en", "bnxt_re", "ice", "irdma", "ib_core", "nvidia-nvswitch", "nvidia_peermem");


    private KernelEventVerdicts() {
    }

    /** The events of one kind on one device: the first, the last, how many, and their values and details. */
    record Group(KernelEvent first, KernelEvent last, int count, double total, java.util.Set<String> details) {

        /** "(3 lines, first [ 1356.29], last [28094.90])" for a repeated event, "" for one line. */
        String times() {
            if (count <= 1) return "";
            String a = first.stamp(), b = last.stamp();
            return " (" + count + " lines" + (a.isEmpty() || b.isEmpty() ? "" : ", first " + a + ", last " + b) + ")";
        }
    }

    /** The verdicts of groups already formed as the log was read; a machine check says nothing beside EDAC. */
    static List<Diagnosis> judge(java.util.Collection<Group> groups, boolean memoryEvents) {
        List<Diagnosis> out = new ArrayList<>();
        for (Group g : groups) {
            if (g.first().kind() == KernelEvent.Kind.MACHINE_CHECK && memoryEvents) continue; // EDAC says more
            out.add(verdict(g));
        }
        return out;
    }

    static List<Diagnosis> judge(List<KernelEvent> events) {
        Map<String, Group> groups = new LinkedHashMap<>();
        for (KernelEvent e : events) {
            if (e.kind() == KernelEvent.Kind.PCIE_FULL) continue;
            String key = e.kind() + "/" + e.device();
            Group g = groups.get(key);
            double v = e.value().orElse(0);
            java.util.Set<String> details = new java.util.LinkedHashSet<>(g == null ? java.util.Set.of() : g.details());
            details.add(e.detail());
            groups.put(key, g == null ? new Group(e, e, 1, v, details)
                    : new Group(g.first(), e, g.count() + 1, g.total() + v, details));
        }
        boolean memoryEvents = events.stream().anyMatch(e -> e.kind() == KernelEvent.Kind.MEMORY_CORRECTED
                || e.kind() == KernelEvent.Kind.MEMORY_UNCORRECTED);
        List<Diagnosis> out = new ArrayList<>();
        for (Group g : groups.values()) {
            if (g.first().kind() == KernelEvent.Kind.MACHINE_CHECK && memoryEvents) continue; // EDAC says more
            out.add(verdict(g));
        }
        return out;
    }

    /** How many lines each repeated event took, per kind and device: a count is a reading too. */
    static List<Measurement> counts(List<KernelEvent> events) {
        Map<String, Integer> n = new LinkedHashMap<>();
        for (KernelEvent e : events) {
            if (e.kind() == KernelEvent.Kind.PCIE_FULL) continue;
            n.merge(e.kind().name().toLowerCase(Locale.ROOT).replace('_', ' ') + " lines of "
                    + (e.device().isEmpty() ? "the host" : e.device()), 1, Integer::sum);
        }
        List<Measurement> out = new ArrayList<>();
        n.forEach((what, count) -> out.add(new Measurement(what, count, "lines")));
        return out;
    }

    private static Diagnosis verdict(Group g) {
        KernelEvent e = g.first();
        String times = g.times();
        String dev = e.device().isEmpty() ? "" : e.device();
        return switch (e.kind()) {
            case PCIE_LIMITED -> of(HostPcieLinkRule.below(String.format(Locale.ROOT,
                    "%.3f Gb/s available PCIe bandwidth: %s", e.value().orElse(0), e.detail()), dev), "PCIe " + dev, e);
            case PROBE_FAILED -> {
                String driver = e.detail().split(" ")[0];
                String observed = "the driver did not attach to the device: probe failed with " + e.detail() + times;
                if (driver.startsWith("nvidia")) {
                    yield of(GpuDriverRule.probeFailed(driver, dev, observed), driver + " " + dev, e);
                }
                yield of(HostModuleRdmaRule.probeFailed(driver, dev, OUR_DRIVERS.contains(driver), observed),
                        driver + " " + dev, e);
            }
            case MEMORY_CORRECTED -> of(HostMemoryEccRule.corrected(String.format(Locale.ROOT, "%.0f corrected memory "
                    + "errors reported%s: the ECC repaired them, but a DIMM is failing", g.total(), times)),
                    "memory " + dev, e);
            case MEMORY_UNCORRECTED -> of(HostMemoryEccRule.uncorrected(String.format(Locale.ROOT,
                    "%.0f uncorrected memory errors%s: data was lost", g.total(), times)), "memory " + dev, e);
            case MACHINE_CHECK -> of(HostMemoryEccRule.machineCheck("machine check: " + e.detail() + times),
                    "CPU/memory", e);
            case PCIE_CORRECTED -> of(HostPcieAerRule.corrected("corrected PCIe errors (" + e.detail() + ")" + times
                    + ": the link retried, so it is marginal", dev), "PCIe " + dev, e);
            case PCIE_UNCORRECTED -> of(HostPcieAerRule.uncorrected("uncorrected PCIe error (" + e.detail() + ")"
                    + times, dev), "PCIe " + dev, e);
            case HARDWARE_ERROR_CORRECTED -> of(HostMemoryEccRule.platformCorrected("firmware (APEI) reported a "
                    + "corrected hardware error" + times), "platform", e);
            case HARDWARE_ERROR_FATAL -> of(HostMemoryEccRule.platformFatal("firmware (APEI) reported a hardware "
                    + "error, " + e.detail() + times), "platform", e);
            case GPU_INIT_FAILED -> DeviceFaultVerdicts.gpuInit(g, dev, times);
            case NIC_TX_HANG, BLOCK_IO_ERROR, NVME_TIMEOUT, GPU_HANG, NVLINK_ERROR, NVSWITCH_ERROR ->
                    DeviceFaultVerdicts.verdict(g, dev, times);
            case PCIE_FULL -> throw new IllegalStateException("PCIE_FULL is not a verdict");
        };
    }

    static String lspci(String dev, String verbosity) {
        return "lspci " + verbosity + (dev.isEmpty() ? "" : " -s " + ShellWord.of(dev));
    }

    private static String at(String dev) {
        return dev.isEmpty() ? "" : " at " + dev;
    }

    /** A pasted log does not say which node it came from: the node the fix runs on. */
    static String drain(String reason) {
        return HostMemoryEccRule.drain(reason);
    }

    static Diagnosis of(String id, Severity s, String subject, String cause, String fix, KernelEvent e) {
        return Diagnosis.of(id, s, subject.strip(), cause, fix, e.lineNumber(), e.line(), "kernel log");
    }

    /** A rule's verdict on a kernel event, with the line as evidence. */
    static Diagnosis of(Verdict v, String subject, KernelEvent e) {
        return Diagnosis.of(v, subject.strip(), e.lineNumber(), e.line(), "kernel log");
    }
}
