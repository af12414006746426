package dev.railyard.diagnose;

import dev.railyard.bench.ibtools.KernelEvent;
import dev.railyard.check.Fix;
import dev.railyard.check.rules.StorageSeqRule;
import dev.railyard.check.ShellWord;
import dev.railyard.check.rules.NetCarrierRule;
import dev.railyard.check.rules.Verdict;
import dev.railyard.check.rules.GpuDriverRule;
import dev.railyard.check.rules.GpuXidRule;
import dev.railyard.model.CheckId;
import dev.railyard.model.Severity;

import java.util.List;
import java.util.Set;

/**
 * Causes and fixes for the device faults of {@code DeviceFaultLines}: one verdict per kind and device, its repeats
 * counted with the first and last time. A NIC that stops transmitting is judged by {@link NetCarrierRule}, told whether
 * its driver is a fabric NIC's (mlx5, ice, bnxt); lost I/O, a GPU hang or reset, an
 * NVLink or NVSwitch error, and a GPU the driver would not take are FAILs.
 */
final class DeviceFaultVerdicts {

    private static final Set<String> FABRIC_NICS = Set.of("mlx5_core", "mlx4_en", "ice", "bnxt_en", "i40e", "irdma");
    /** The GPU driver's reasons, most telling first: one GPU's several lines give the first of these they hold. */
    private static final List<String> REASONS = List.of("gsp-reset", "gfw-boot", "gsp", "bar", "unsupported",
            "nouveau", "none-probed", "rminit");

    private DeviceFaultVerdicts() {
    }

    static Diagnosis verdict(KernelEventVerdicts.Group g, String dev, String times) {
        KernelEvent e = g.first();
        return switch (e.kind()) {
            case NIC_TX_HANG -> {
                String driver = e.detail().split(" ")[0];
                Verdict v = NetCarrierRule.txHang(dev, driver, FABRIC_NICS.contains(driver), "the NIC stopped "
                        + "transmitting and the kernel reset it (" + e.detail() + ")" + times + ": packets were lost "
                        + "while it hung; a hang that repeats is a driver or firmware fault, a PCIe problem under the "
                        + "card, or the card itself");
                yield KernelEventVerdicts.of(v.id().id(), v.severity(), "NIC " + dev, v.observed(), v.fix(), e);
            }
            case BLOCK_IO_ERROR -> KernelEventVerdicts.of(StorageSeqRule.deviceFault(
                    "reads or writes to " + dev + " failed (" + e.detail() + ")" + times + ": data was not stored or "
                            + "not read; a file system on it may have gone read-only",
                    Fix.lines(KernelEventVerdicts.drain("disk-io"), dev.isEmpty() ? "lsblk"
                                    : "smartctl -a " + ShellWord.of("/dev/" + dev) + "   # media and controller errors",
                            dev.startsWith("nvme") ? "nvme smart-log " + ShellWord.of("/dev/" + dev) : "nvme list",
                            Fix.note("replace the disk if its error counts are not 0; if they are, look at the "
                                    + "controller timeouts above it and at the PCIe slot"))), "disk " + dev, e);
            case NVME_TIMEOUT -> KernelEventVerdicts.of(StorageSeqRule.deviceFault(
                    "the NVMe controller " + dev + " stopped answering (" + e.detail() + ")" + times + ": the kernel "
                            + "aborted commands and reset or removed it; CSTS=0xffffffff means it fell off the PCIe "
                            + "bus, often its power-saving state",
                    Fix.lines(dev.isEmpty() ? "nvme list" : "nvme smart-log " + ShellWord.of("/dev/" + dev),
                            "cat /sys/module/nvme_core/parameters/default_ps_max_latency_us",
                            Fix.note("if it drops out again: boot with nvme_core.default_ps_max_latency_us=0 "
                                    + "pcie_aspm=off, update the drive's firmware, then replace it"))), "NVMe " + dev, e);
            case GPU_HANG -> KernelEventVerdicts.of(GpuXidRule.hang("the GPU hung and the driver reset it ("
                    + String.join("; ", g.details()) + ")" + times + ": the job on it was lost"
                    + (g.details().stream().anyMatch(x -> x.contains("VRAM")) ? ", and so was the GPU's memory" : "")),
                    "GPU " + dev, e);
            case NVLINK_ERROR -> KernelEventVerdicts.of(CheckId.GPU_NVLINK.id(), Severity.FAIL, "GPU " + dev,
                    "the NVIDIA driver reports an NVLink failure without an Xid number (" + e.detail() + ")" + times
                            + ": the links did not train, so NCCL falls back to PCIe or fails",
                    Fix.lines("nvidia-smi nvlink -s", "systemctl status nvidia-fabricmanager",
                            Fix.note("restart the fabric manager (same version as the driver) and reboot; links that "
                                    + "stay down need the NVLink bridge or board inspected")), e);
            case NVSWITCH_ERROR -> KernelEventVerdicts.of(CheckId.GPU_NVLINK.id(), Severity.FAIL, "NVSwitch " + dev,
                    "the NVSwitch reported " + e.detail() + times + ": NVLink traffic through it stalls and the GPU "
                            + "jobs using it abort (Xid 45)",
                    Fix.lines(KernelEventVerdicts.drain("sxid"), "nvidia-smi -q | grep -i -A3 fabric",
                            Fix.note("look the SXid up in NVIDIA's NVSwitch error table; fatal ones need the node "
                                    + "rebooted (GPUs and NVSwitches reset together)")), e);
            default -> throw new IllegalStateException(e.kind() + " is not a device fault");
        };
    }

    static Diagnosis gpuInit(KernelEventVerdicts.Group g, String dev, String times) {
        KernelEvent e = g.first();
        String reason = REASONS.stream().filter(g.details()::contains).findFirst().orElse(e.detail());
        return KernelEventVerdicts.of(GpuDriverRule.initFailed(reason, e.detail(), dev, times), "GPU " + dev, e);
    }
}
