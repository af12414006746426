package dev.railyard.bench.ibtools;

import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Kernel log lines of device faults beyond NVIDIA's Xid and mlx5 link changes: NIC transmit hangs, block and NVMe I/O
 * errors, other GPUs' hangs and resets, NVLink and NVSwitch errors, the NVIDIA driver's reasons for not taking a GPU
 * (nouveau holds it, the release does not support it, a BAR the firmware did not assign, GSP firmware that would not
 * boot), a probe that failed in the newer "probe with driver X failed" wording, and AER's "error message received".
 * Each pattern is tried only on lines holding its literal.
 */
final class DeviceFaultLines {

    /** The literals of the lines this class reads, for the parser's one-pass prefilter. */
    static final List<String> LITERALS = List.of("NETDEV WATCHDOG", "Unit Hang", "TX timeout", "I/O error",
            "Data Transfer Error", "QID", "controller is down", "Removing after probe failure", "amdgpu", "GPU HANG",
            "NVRM", "SXid", "probe with driver", "message received from", "Aborting journal");

    private static final Pattern WATCHDOG_OLD = Pattern.compile("NETDEV WATCHDOG: (\\S+) \\(([\\w\\-]+)\\): transmit queue (\\d+) timed out");
    private static final Pattern WATCHDOG_NEW = Pattern.compile("([\\w\\-]+) (\\S+) (\\S+): NETDEV WATCHDOG: (?:CPU: \\d+: )?transmit queue (\\d+) timed out");
    private static final Pattern UNIT_HANG = Pattern.compile("([\\w\\-]+) (\\S+?)(?: (\\S+?))?: Detected (?:Hardware|Tx) Unit Hang");
    private static final Pattern TX_TIMEOUT = Pattern.compile("([\\w\\-]+) (\\S+) (\\S+): TX timeout detected");
    private static final Pattern IO_ERROR = Pattern.compile("I/O error,? (?:on )?dev(?:ice)? ([\\w\\-]+)");
    private static final Pattern NVME_CMD = Pattern.compile("(nvme\\d+n\\d+): .*(Data Transfer Error|I/O Error)");
    private static final Pattern JOURNAL = Pattern.compile("Aborting journal on device ([\\w\\-]+)");
    private static final Pattern NVME = Pattern.compile("nvme (nvme\\d+): (I/O \\d+ QID \\d+ timeout, [\\w ]+|controller is down; will reset|Removing after probe failure[^\\n]*)");
    private static final Pattern AMDGPU = Pattern.compile("amdgpu (\\S+?):(?: amdgpu:)? *(ring \\S+ timeout|GPU reset begin|VRAM is lost|MES failed to respond[^\\n]*|Ring \\S+ reset failed)");
    private static final Pattern AMDGPU_NODEV = Pattern.compile("\\[drm:amdgpu_job_timedout \\[amdgpu]] \\*ERROR\\* (ring \\S+ timeout)");
    private static final Pattern SXID = Pattern.compile("SXid \\(PCI:([0-9a-fA-F:.]+)\\): (\\d{1,6})");
    private static final Pattern PROBE_WITH = Pattern.compile("([\\w\\-]+) (\\S+): probe with driver ([\\w\\-]+) failed with error (-?\\d+)");
    private static final Pattern AER_FROM = Pattern.compile("(\\S+): AER: (?:Multiple )?(Correctable|Uncorrectable \\(\\w+(?:-\\w+)?\\)|Uncorrected \\(\\w+(?:-\\w+)?\\)) error message received from (\\S+)");
    private static final Pattern NV_GPU = Pattern.compile("(?:PCI:|GPU )([0-9a-fA-F]{4}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\\.\\d)");
    private static final Pattern STAMP = Pattern.compile("^\\s*(\\[[^]]{4,32}]|[A-Z][a-z]{2} [A-Z][a-z]{2} [ \\d]\\d \\d\\d:\\d\\d:\\d\\d \\d{4}|"
            + "[A-Z][a-z]{2} [ \\d]\\d \\d\\d:\\d\\d:\\d\\d|\\d{4}-\\d\\d-\\d\\d[T ]\\d\\d:\\d\\d:\\d\\d[.,]?\\d*)");

    /** Why the NVIDIA driver would not take a GPU, from the words it used. */
    private static final List<String[]> NVIDIA_REASONS = List.of(
            new String[] {"probe routine was not called", "nouveau"},
            new String[] {"is not supported by the", "unsupported"},
            new String[] {"in this system is not supported", "unsupported"},
            new String[] {"BAR0 is 0M", "bar"},
            new String[] {"PCI I/O region assigned to your NVIDIA device is invalid", "bar"},
            new String[] {"Cannot initialize GSP firmware RM", "gsp"},
            new String[] {"cannot bootstrap GSP", "gsp"},
            new String[] {"WPR2 already up", "gsp-reset"},
            new String[] {"kgspWaitForGfwBootOk", "gfw-boot"},
            new String[] {"failed to wait for GFW_BOOT", "gfw-boot"},
            new String[] {"Booter failed", "gsp"},
            new String[] {"No NVIDIA graphics adapter probed", "none-probed"},
            new String[] {"RmInitAdapter failed", "rminit"});

    private DeviceFaultLines() {
    }

    static Optional<KernelEvent> read(String line, int i) {
        Matcher m;
        if (line.contains("NETDEV WATCHDOG")) {
            if ((m = WATCHDOG_NEW.matcher(line)).find()) return event(KernelEvent.Kind.NIC_TX_HANG, m.group(3), m.group(1) + " " + m.group(2) + " transmit queue " + m.group(4) + " timed out", i, line);
            if ((m = WATCHDOG_OLD.matcher(line)).find()) return event(KernelEvent.Kind.NIC_TX_HANG, m.group(1), m.group(2) + " transmit queue " + m.group(3) + " timed out", i, line);
        }
        if (line.contains("Unit Hang") && (m = UNIT_HANG.matcher(line)).find()) {
            String dev = m.group(3) != null ? m.group(3) : m.group(2);
            return event(KernelEvent.Kind.NIC_TX_HANG, dev, m.group(1) + " " + m.group(2) + " hardware unit hang", i, line);
        }
        if (line.contains("TX timeout") && (m = TX_TIMEOUT.matcher(line)).find()) {
            return event(KernelEvent.Kind.NIC_TX_HANG, m.group(3), m.group(1) + " " + m.group(2) + " TX timeout", i, line);
        }
        if (line.contains("I/O error") && !line.contains("QID") && (m = IO_ERROR.matcher(line)).find()) {
            return event(KernelEvent.Kind.BLOCK_IO_ERROR, base(m.group(1)), "I/O error", i, line);
        }
        if ((line.contains("Data Transfer Error") || line.contains("I/O Error")) && (m = NVME_CMD.matcher(line)).find()) {
            return event(KernelEvent.Kind.BLOCK_IO_ERROR, m.group(1), m.group(2), i, line);
        }
        if (line.contains("Aborting journal") && (m = JOURNAL.matcher(line)).find()) {
            return event(KernelEvent.Kind.BLOCK_IO_ERROR, base(m.group(1)), "the file system aborted its journal", i, line);
        }
        if (line.contains("nvme ") && (m = NVME.matcher(line)).find()) {
            return event(KernelEvent.Kind.NVME_TIMEOUT, m.group(1), m.group(2).strip(), i, line);
        }
        if (line.contains("amdgpu")) {
            if ((m = AMDGPU.matcher(line)).find()) return event(KernelEvent.Kind.GPU_HANG, m.group(1), "amdgpu " + m.group(2), i, line);
            if ((m = AMDGPU_NODEV.matcher(line)).find()) return event(KernelEvent.Kind.GPU_HANG, "amdgpu", "amdgpu " + m.group(1), i, line);
        }
        if (line.contains("GPU HANG")) return event(KernelEvent.Kind.GPU_HANG, "i915", line.substring(line.indexOf("GPU HANG")).strip(), i, line);
        if (line.contains("SXid") && (m = SXID.matcher(line)).find()) {
            return event(KernelEvent.Kind.NVSWITCH_ERROR, m.group(1), "SXid " + m.group(2), i, line);
        }
        if (line.contains("probe with driver") && (m = PROBE_WITH.matcher(line)).find()) {
            return event(KernelEvent.Kind.PROBE_FAILED, m.group(2).replaceAll(":$", ""), m.group(3) + " error " + m.group(4), i, line);
        }
        if (line.contains("message received from") && (m = AER_FROM.matcher(line)).find()) {
            boolean corrected = m.group(2).equals("Correctable");
            return event(corrected ? KernelEvent.Kind.PCIE_CORRECTED : KernelEvent.Kind.PCIE_UNCORRECTED, m.group(3),
                    m.group(2) + " error message received", i, line);
        }
        if (line.contains("NVRM")) return nvrm(line, i);
        return Optional.empty();
    }

    private static Optional<KernelEvent> nvrm(String line, int i) {
        String lower = line.toLowerCase(java.util.Locale.ROOT);
        if (lower.contains("nvlink") && (lower.contains("fail") || lower.contains("error") || lower.contains("timeout"))) {
            return event(KernelEvent.Kind.NVLINK_ERROR, gpu(line), line.substring(line.indexOf("NVRM")).strip(), i, line);
        }
        for (String[] r : NVIDIA_REASONS) {
            if (line.contains(r[0])) return event(KernelEvent.Kind.GPU_INIT_FAILED, gpu(line), r[1], i, line);
        }
        return Optional.empty();
    }

    private static String gpu(String line) {
        Matcher m = NV_GPU.matcher(line);
        return m.find() ? m.group(1) : "";
    }

    /** nvme0n1p1 and nvme0n1 are one disk; sda1 and sda too. */
    private static String base(String dev) {
        return dev.replaceFirst("(nvme\\d+n\\d+)p\\d+$", "$1").replaceFirst("^((?:sd|vd|xvd)[a-z]+)\\d+$", "$1");
    }

    private static Optional<KernelEvent> event(KernelEvent.Kind kind, String device, String detail, int i, String line) {
        return Optional.of(new KernelEvent(kind, device, detail, OptionalDouble.empty(), i, line));
    }

    static String stamp(String line) {
        Matcher m = STAMP.matcher(line);
        if (m.find()) return m.group(1).strip();
        int k = line.indexOf("kernel: [");
        if (k >= 0) {
            int end = line.indexOf(']', k);
            if (end > k) return line.substring(k + 8, end + 1);
        }
        return "";
    }
}
