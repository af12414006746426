package dev.railyard.diagnose;

import dev.railyard.bench.ibtools.KernelEvent;
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

    record Group(KernelEvent first, int count, double total) {}

    static List<Diagnosis> judge(List<KernelEvent> events) {
        Map<String, Group> groups = new LinkedHashMap<>();
        for (KernelEvent e : events) {
            if (e.kind() == KernelEvent.Kind.PCIE_FULL) continue;
            String key = e.kind() + "/" + e.device();
            Group g = groups.get(key);
            double v = e.value().orElse(0);
            groups.put(key, g == null ? new Group(e, 1, v) : new Group(g.first(), g.count() + 1, g.total() + v));
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

    private static Diagnosis verdict(Group g) {
        KernelEvent e = g.first();
        String times = g.count() > 1 ? " (" + g.count() + " lines)" : "";
        String dev = e.device().isEmpty() ? "" : e.device();
        return switch (e.kind()) {
            case PCIE_LIMITED -> of(CheckId.HOST_PCIE_LINK.id(), Severity.WARN, "PCIe " + dev,
                    String.format(Locale.ROOT, "%.3f Gb/s available PCIe bandwidth: %s", e.value().orElse(0),
                            e.detail()),
                    "the device runs on fewer lanes or a slower generation than it can: reseat it or move it to a "
                            + "full-width slot, check BIOS bifurcation and risers; 'sudo lspci -vv -s " + dev
                            + " | grep -E \"LnkCap|LnkSta\"' shows both", e);
            case PROBE_FAILED -> {
                String driver = e.detail().split(" ")[0];
                boolean ours = OUR_DRIVERS.contains(driver);
                yield of(driver.startsWith("nvidia") ? CheckId.GPU_DRIVER.id() : CheckId.HOST_MODULE_RDMA.id(),
                        ours ? Severity.FAIL : Severity.WARN, driver + " " + dev,
                        "the driver did not attach to the device: probe failed with " + e.detail() + times,
                        "read the lines above it (firmware version, handle_hca_cap, mlx5_load_one); match the driver "
                                + "to the firmware (mlxfwmanager --query / modinfo " + driver + ") and reload it", e);
            }
            case MEMORY_CORRECTED -> of(CheckId.HOST_MEMORY_ECC.id(), Severity.WARN, "memory " + dev,
                    String.format(Locale.ROOT, "%.0f corrected memory errors reported%s: the ECC repaired them, but "
                            + "a DIMM is failing", g.total(), times),
                    "find the DIMM with 'ras-mc-ctl --error-count' or 'edac-util -v' and replace it if the count "
                            + "keeps rising", e);
            case MEMORY_UNCORRECTED -> of(CheckId.HOST_MEMORY_ECC.id(), Severity.FAIL, "memory " + dev,
                    String.format(Locale.ROOT, "%.0f uncorrected memory errors%s: data was lost", g.total(), times),
                    "drain the node and replace the DIMM that 'ras-mc-ctl --errors' names", e);
            case MACHINE_CHECK -> of(CheckId.HOST_MEMORY_ECC.id(), Severity.WARN, "CPU/memory",
                    "machine check: " + e.detail() + times,
                    "read 'ras-mc-ctl --errors' or 'mcelog --client' for the bank and DIMM", e);
            case PCIE_CORRECTED -> of(CheckId.HOST_PCIE_AER.id(), Severity.WARN, "PCIe " + dev,
                    "corrected PCIe errors (" + e.detail() + ")" + times + ": the link retried, so it is marginal",
                    "reseat the card and check its riser/cable; 'sudo lspci -vvv -s " + dev + "' shows the AER "
                            + "status; for a desktop port flooding the log, pcie_aspm=off is a workaround", e);
            case PCIE_UNCORRECTED -> of(CheckId.HOST_PCIE_AER.id(), Severity.FAIL, "PCIe " + dev,
                    "uncorrected PCIe error (" + e.detail() + ")" + times,
                    "drain the node; reseat or replace the device and check 'sudo lspci -vvv -s " + dev + "'", e);
            case HARDWARE_ERROR_CORRECTED -> of(CheckId.HOST_MEMORY_ECC.id(), Severity.WARN, "platform",
                    "firmware (APEI) reported a corrected hardware error" + times,
                    "read the [Hardware Error] lines after it for the section type; 'ras-mc-ctl --errors'", e);
            case HARDWARE_ERROR_FATAL -> of(CheckId.HOST_MEMORY_ECC.id(), Severity.FAIL, "platform",
                    "firmware (APEI) reported a hardware error, " + e.detail() + times,
                    "drain the node; read the [Hardware Error] lines for the failing part", e);
            case GPU_INIT_FAILED -> of(CheckId.GPU_DRIVER.id(), Severity.FAIL, "GPU " + dev,
                    "the NVIDIA driver could not initialise the GPU: " + e.detail() + times,
                    "check the GPU's power cables and seating, that the driver supports this GPU "
                            + "(nvidia-smi, modinfo nvidia), and the log for Xid 79 / fallen off the bus", e);
            case PCIE_FULL -> throw new IllegalStateException("PCIE_FULL is not a verdict");
        };
    }

    private static Diagnosis of(String id, Severity s, String subject, String cause, String fix, KernelEvent e) {
        return Diagnosis.of(id, s, subject.strip(), cause, fix, e.lineNumber(), e.line(), "kernel log");
    }
}
