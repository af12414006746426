package dev.railyard.diagnose;

import dev.railyard.bench.ibtools.KernelEvent;
import dev.railyard.check.Fix;
import dev.railyard.check.rules.StorageSeqRule;
import dev.railyard.check.ShellWord;
import dev.railyard.check.rules.NetCarrierRule;
import dev.railyard.check.rules.Verdict;
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
            case GPU_HANG -> KernelEventVerdicts.of(CheckId.GPU_XID.id(), Severity.FAIL, "GPU " + dev,
                    "the GPU hung and the driver reset it (" + String.join("; ", g.details()) + ")" + times
                            + ": the job on it was lost" + (g.details().stream().anyMatch(x -> x.contains("VRAM"))
                            ? ", and so was the GPU's memory" : ""),
                    Fix.lines("dmesg | grep -E 'amdgpu|drm' | tail -40",
                            Fix.note("one reset after a faulty job is the job's fault; resets that repeat under "
                                    + "different jobs call for a driver and firmware update, then hardware "
                                    + "inspection")), e);
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
        String cause = switch (reason) {
            case "gsp-reset" -> "the GPU's firmware region (WPR2) was still up from before, so GSP could not boot: "
                    + "the GPU was left in a bad state and needs a reset";
            case "gfw-boot", "gsp" -> "the GPU's GSP firmware would not boot: the open kernel module needs GSP firmware "
                    + "this GPU and driver release must both support (and gsp_*.bin of the same release installed)";
            case "bar" -> "the firmware gave the GPU no usable PCI memory window (BAR0 0M): the BIOS did not assign "
                    + "it, so the driver cannot reach the GPU";
            case "unsupported" -> "this driver release does not support the GPU (too new or too old for it)";
            case "nouveau" -> "another driver (nouveau or a framebuffer driver) took the GPU first, so NVIDIA's "
                    + "probe was not called";
            case "none-probed" -> "the NVIDIA driver found no GPU it could take";
            case "rminit" -> "the NVIDIA driver could not initialise the GPU (RmInitAdapter failed)";
            default -> "the NVIDIA driver could not initialise the GPU: " + e.detail();
        };
        String fix = switch (reason) {
            case "gsp-reset" -> Fix.lines((dev.isEmpty() ? "nvidia-smi -r" : "nvidia-smi -r -i " + ShellWord.of(dev))
                    + "   # when nothing holds it; else reboot", "reboot");
            case "gfw-boot", "gsp" -> Fix.lines("modinfo -F version nvidia; ls /lib/firmware/nvidia/",
                    Fix.note("install the GSP firmware of the same release, or use the proprietary module "
                            + "(NVreg_EnableGpuFirmware=0 works only there) for GPUs before Turing"));
            case "bar" -> Fix.lines(Fix.note("enable Above 4G Decoding (and Resizable BAR) in the BIOS, or boot with:"),
                    "pci=realloc=on");
            case "unsupported" -> Fix.lines(KernelEventVerdicts.lspci(dev, "-nn") + " | grep -i nvidia",
                    Fix.note("install a driver release whose supported-GPU list names this device ID"));
            case "nouveau" -> Fix.lines("lsmod | grep -E 'nouveau|nvidiafb|rivafb'",
                    "printf 'blacklist nouveau\\noptions nouveau modeset=0\\n' > /etc/modprobe.d/blacklist-nouveau.conf",
                    "update-initramfs -u || dracut -f", "reboot");
            default -> Fix.lines("dmesg | grep -E 'NVRM|fallen off the bus'", KernelEventVerdicts.lspci(dev, "-nn")
                    + " | grep -i nvidia", "modinfo -F version nvidia", Fix.note("check that this driver release "
                    + "supports the GPU above, and the GPU's power cables and seating"));
        };
        return KernelEventVerdicts.of(CheckId.GPU_DRIVER.id(), Severity.FAIL, "GPU " + dev, cause + times, fix, e);
    }
}
