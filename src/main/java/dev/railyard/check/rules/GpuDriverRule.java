package dev.railyard.check.rules;

import dev.railyard.check.Fix;
import dev.railyard.check.ShellWord;
import dev.railyard.model.CheckId;
import dev.railyard.model.GpuInventory.NvmlSystem;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;
import dev.railyard.model.ValueText;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * gpu.driver: the NVIDIA driver and CUDA versions against the spec's pins, and a driver that is not loaded or could
 * not take a GPU. The node check reads NVML; diagnose reads the kernel's lines on why the driver failed (GSP firmware,
 * a BAR the BIOS did not assign, nouveau first, a probe that failed) and gives that cause's fix.
 */
public final class GpuDriverRule implements Rule {

    public static final CheckId ID = CheckId.GPU_DRIVER;

    /** Load the installed driver, or install the distribution's when there is none to load. */
    public static final String LOAD_DRIVER = Fix.lines(
            "modprobe nvidia || (command -v ubuntu-drivers >/dev/null && ubuntu-drivers install || dnf module install -y nvidia-driver)",
            "nvidia-smi -L");

    GpuDriverRule() {
    }

    @Override
    public CheckId id() {
        return ID;
    }

    @Override
    public String reads() {
        return "driver and CUDA versions (NVML), the loaded modules; diagnose: the kernel's driver init and probe "
                + "failures";
    }

    @Override
    public String thresholds() {
        return "the spec's pins gpus.driver and gpus.cuda (a pin covers the versions under it: 580 pins 580.159.04)";
    }

    @Override
    public String severities() {
        return "differs from the pin, GPUs without a loaded driver, a driver that could not take a GPU: FAIL; "
                + "unread or not a version: UNKNOWN; no spec: INFO";
    }

    @Override
    public String fix() {
        return "install the pinned driver, or load it; for an init failure, the cause's own step (GSP firmware, "
                + "Above 4G Decoding, blacklist nouveau, a reset)";
    }

    /** "580.159.04", "13.0": dot-separated numbers, as NVML and nvidia-smi print them. */
    public static boolean isVersion(String v) {
        return v.matches("[0-9]+(\\.[0-9]+)*");
    }

    /** The version is the pin, or lies under it: "580.159.04" is pinned by "580" and "580.159", not by "580.1". */
    public static boolean pinned(String version, String pin) {
        return version.equals(pin) || version.startsWith(pin + ".");
    }

    /**
     * NVML's versions against the pins. {@code gpus} is how many GPUs the node shows; {@code noDriver} that NVML
     * answered nothing and the module list, read, has no nvidia module.
     */
    public static Verdict versions(Reading<NvmlSystem> r, Optional<String> wantDriver, Optional<String> wantCuda,
                                   int gpus, boolean noDriver) {
        String expected = (wantDriver.map(d -> "driver " + d).orElse("") + wantCuda.map(c -> " CUDA " + c).orElse(""))
                .trim();
        if (expected.isEmpty()) expected = "no spec pin";
        if (!(r instanceof Reading.Present<NvmlSystem>(NvmlSystem sys))) {
            if (gpus > 0 && noDriver) {
                return new Verdict(ID, Severity.FAIL, gpus + " NVIDIA GPUs on PCI, no NVIDIA driver loaded ("
                        + r.describe() + ")", expected, LOAD_DRIVER);
            }
            return new Verdict(ID, Severity.UNKNOWN, r.describe(), expected, "");
        }
        String observed = "driver " + sys.driverVersion() + " CUDA " + sys.cudaVersion();
        if (wantDriver.isEmpty() && wantCuda.isEmpty()) return new Verdict(ID, Severity.INFO, observed, expected, "");
        // a pinned version that was read as something else than a version ("580.159.04 kB") is not judged
        for (String v : List.of(sys.driverVersion(), sys.cudaVersion())) {
            if (!isVersion(v)) {
                return new Verdict(ID, Severity.UNKNOWN, observed + " (not a version: " + ValueText.quote(v) + ")",
                        expected, "nvidia-smi --query-gpu=driver_version --format=csv,noheader");
            }
        }
        boolean driverOk = wantDriver.map(d -> pinned(sys.driverVersion(), d)).orElse(true);
        boolean cudaOk = wantCuda.map(c -> pinned(sys.cudaVersion(), c)).orElse(true);
        if (driverOk && cudaOk) return new Verdict(ID, Severity.PASS, observed, expected, "");
        return new Verdict(ID, Severity.FAIL, observed, expected, Fix.lines(Fix.note("install the driver the spec "
                        + "pins (gpus.driver), or change the pin if this node is right"),
                wantDriver.map(d -> "(command -v apt-get >/dev/null && apt-get install -y nvidia-driver-"
                        + d.split("\\.")[0] + " || dnf module install -y nvidia-driver:" + d.split("\\.")[0] + ")")
                        .orElse("nvidia-smi")));
    }

    /**
     * The kernel's reason the NVIDIA driver could not initialise the GPU at {@code dev} ("gsp-reset", "gfw-boot",
     * "gsp", "bar", "unsupported", "nouveau", "none-probed", "rminit", else the line's own {@code detail});
     * {@code times} says how often and when.
     */
    public static Verdict initFailed(String reason, String detail, String dev, String times) {
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
            default -> "the NVIDIA driver could not initialise the GPU: " + detail;
        };
        String fix = switch (reason) {
            case "gsp-reset" -> Fix.lines((dev.isEmpty() ? "nvidia-smi -r" : "nvidia-smi -r -i " + ShellWord.of(dev))
                    + "   # when nothing holds it; else reboot", "reboot");
            case "gfw-boot", "gsp" -> Fix.lines("modinfo -F version nvidia; ls /lib/firmware/nvidia/",
                    Fix.note("install the GSP firmware of the same release, or use the proprietary module "
                            + "(NVreg_EnableGpuFirmware=0 works only there) for GPUs before Turing"));
            case "bar" -> Fix.lines(Fix.note("enable Above 4G Decoding (and Resizable BAR) in the BIOS, or boot with:"),
                    "pci=realloc=on");
            case "unsupported" -> Fix.lines(lspci(dev) + " | grep -i nvidia",
                    Fix.note("install a driver release whose supported-GPU list names this device ID"));
            case "nouveau" -> Fix.lines("lsmod | grep -E 'nouveau|nvidiafb|rivafb'",
                    "printf 'blacklist nouveau\\noptions nouveau modeset=0\\n' > /etc/modprobe.d/blacklist-nouveau.conf",
                    "update-initramfs -u || dracut -f", "reboot");
            default -> Fix.lines("dmesg | grep -E 'NVRM|fallen off the bus'", lspci(dev)
                    + " | grep -i nvidia", "modinfo -F version nvidia", Fix.note("check that this driver release "
                    + "supports the GPU above, and the GPU's power cables and seating"));
        };
        return new Verdict(ID, Severity.FAIL, cause + times, "", fix);
    }

    /**
     * An NVIDIA module ({@code driver} starts with "nvidia") did not attach to the device: a FAIL for the modules
     * GPU jobs need, a WARN for the others (nvidia-drm, nvidia_uvm's helpers).
     */
    public static Verdict probeFailed(String driver, String dev, String observed) {
        Severity s = Set.of("nvidia", "nvidia-nvswitch", "nvidia_peermem").contains(driver) ? Severity.FAIL
                : Severity.WARN;
        List<String> lines = new ArrayList<>(List.of("dmesg | grep -F " + ShellWord.of(dev.isEmpty() ? driver : dev),
                "modinfo " + ShellWord.of(driver) + " | grep -E '^(filename|version|vermagic):'",
                "lsmod | grep nouveau",
                Fix.note("install a driver release that supports this GPU (and blacklist nouveau if it is loaded), "
                        + "then reboot")));
        return new Verdict(ID, s, observed, "", Fix.lines(lines.toArray(String[]::new)));
    }

    private static String lspci(String dev) {
        return "lspci -nn" + (dev.isEmpty() ? "" : " -s " + ShellWord.of(dev));
    }
}
