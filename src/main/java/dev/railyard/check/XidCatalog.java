package dev.railyard.check;

import dev.railyard.model.Severity;

import java.util.Map;
import java.util.Optional;
import static java.util.Map.entry;

/**
 * NVIDIA Xid codes: name, how bad, and what to do, after NVIDIA's Xid table and gpud's catalog. The action is what
 * an operator (or the agent's Slurm drain) does; Railyard only recommends it, never resets or reboots by itself.
 * The one catalog: `check` (gpu.xid) and `diagnose` (kernel logs) both judge Xid codes here.
 */
public final class XidCatalog {

    /** What to do, as runnable lines ({@code #} lines for hand steps); {@code {gpu}} and {@code {node}} are filled in. */
    public enum Action {
        NONE("# no action: it follows another error"),
        CHECK_APPLICATION("# an application bug or a killed job: check the application; the GPU is fine"),
        RESET_GPU("# when the GPU is idle (or reboot the node instead):\nnvidia-smi -r -i {gpu}"),
        REBOOT_SYSTEM("scontrol update nodename={node} state=drain reason=xid\nreboot"),
        HARDWARE_INSPECTION("scontrol update nodename={node} state=drain reason=xid\ndcgmi diag -r 3\n"
                + "# then send the GPU or board for hardware inspection (RMA)");

        public final String text;

        Action(String text) {
            this.text = text;
        }
    }

    /**
     * {@code advice} is what this code in particular asks for beyond its action (the command that shows the
     * evidence, the part to reseat), as more lines; empty when the action says it all.
     */
    public record Entry(int code, String name, Severity severity, Action action, String advice) {

        /**
         * The action, then the code's own advice, one command a line: what `check` (gpu.xid) and `diagnose` both
         * print. {@code gpu} is what {@code nvidia-smi -i} takes (an index or a PCI bus ID), {@code node} the node's
         * name (diagnose, which does not know it, gives {@code $(hostname -s)}); both go in as shell words, so a
         * name from the machine comes quoted ({@link ShellWord}).
         */
        public String remediation(String gpu, String node) {
            String action = this.action.text.replace("{gpu}", gpu).replace("{node}", node);
            return advice.isEmpty() ? action : action + "\n" + advice;
        }
    }

    private static final String APP = "# if it repeats across jobs on this GPU only:\ndcgmi diag -r 3";
    private static final String REMAP = "nvidia-smi -q -d ROW_REMAPPER   # pending or failed remaps";
    private static final String NVLINK = "nvidia-smi nvlink -s   # the link named in the Xid line\n"
            + "# a Fatal one needs the GPU reset (or the node rebooted); one that repeats, the link inspected";
    private static final String DRAIN_FIRST = "# drain the node first (scontrol update nodename=... state=drain)";

    private static final Map<Integer, Entry> ENTRIES = Map.ofEntries(
            e(13, "Graphics Engine Exception", Severity.WARN, Action.CHECK_APPLICATION, APP),
            e(31, "GPU memory page fault", Severity.WARN, Action.CHECK_APPLICATION, APP),
            e(32, "Invalid or corrupted push buffer stream", Severity.WARN, Action.CHECK_APPLICATION, ""),
            e(43, "GPU stopped processing (channel reset)", Severity.WARN, Action.CHECK_APPLICATION,
                    "# usually the job was killed; nothing to do unless it repeats"),
            e(45, "Preemptive cleanup, due to previous errors", Severity.INFO, Action.NONE, ""),
            e(48, "Double Bit ECC Error (DBE)", Severity.FAIL, Action.RESET_GPU,
                    DRAIN_FIRST + "\n# replace the GPU if the DBE comes back"),
            e(61, "Internal micro-controller breakpoint/warning", Severity.FAIL, Action.REBOOT_SYSTEM, ""),
            e(62, "Internal micro-controller halt", Severity.FAIL, Action.REBOOT_SYSTEM, ""),
            e(63, "ECC page retirement or row remapping recording event", Severity.WARN, Action.RESET_GPU,
                    "# the reset applies the remap\n" + REMAP),
            e(64, "ECC page retirement or row remapper recording failure", Severity.FAIL,
                    Action.HARDWARE_INSPECTION, REMAP),
            e(68, "NVDEC0 Exception (video processor)", Severity.WARN, Action.CHECK_APPLICATION, ""),
            e(69, "Graphics Engine class error", Severity.WARN, Action.CHECK_APPLICATION, ""),
            e(74, "NVLink Error", Severity.FAIL, Action.HARDWARE_INSPECTION,
                    "nvidia-smi nvlink -s   # shows the failing link\n# reseat or replace the NVLink bridge or board"),
            e(79, "GPU has fallen off the bus", Severity.FAIL, Action.HARDWARE_INSPECTION,
                    "# check PCIe seating, power and cooling; replace the GPU if it recurs"),
            e(92, "High single-bit ECC error rate", Severity.WARN, Action.HARDWARE_INSPECTION,
                    "nvidia-smi -q -d ECC   # watch the rate; drain the node if it rises"),
            e(94, "Contained ECC error", Severity.WARN, Action.RESET_GPU, "# reset when the running job ends"),
            e(95, "Uncontained ECC error", Severity.FAIL, Action.RESET_GPU, DRAIN_FIRST),
            e(119, "GSP RPC timeout", Severity.FAIL, Action.RESET_GPU,
                    DRAIN_FIRST + "\n# update the driver if it recurs"),
            e(120, "GSP error", Severity.FAIL, Action.RESET_GPU,
                    DRAIN_FIRST + "\n# update the driver if it recurs"),
            e(140, "Unrecovered ECC error", Severity.FAIL, Action.RESET_GPU, ""),
            e(144, "NVLink SAW error", Severity.WARN, Action.RESET_GPU, NVLINK),
            e(145, "NVLink RLW error", Severity.WARN, Action.RESET_GPU, NVLINK),
            e(146, "NVLink TLW error", Severity.WARN, Action.RESET_GPU, NVLINK),
            e(147, "NVLink TREX error", Severity.WARN, Action.RESET_GPU, NVLINK),
            e(148, "NVLink NVLPW control error", Severity.WARN, Action.RESET_GPU, NVLINK),
            e(149, "NVLink NETIR error", Severity.WARN, Action.RESET_GPU, NVLINK),
            e(150, "NVLink MSE error", Severity.WARN, Action.RESET_GPU, NVLINK),
            e(154, "GPU recovery action changed", Severity.FAIL, Action.RESET_GPU, ""));

    private XidCatalog() {
    }

    private static Map.Entry<Integer, Entry> e(int code, String name, Severity severity, Action action,
                                               String advice) {
        return entry(code, new Entry(code, name, severity, action, advice));
    }

    public static Optional<Entry> lookup(int code) {
        return Optional.ofNullable(ENTRIES.get(code));
    }

    /**
     * The entry for a code, with the action the driver itself asked for where Xid 154 says so
     * ("... to 0x2 (Node Reboot Required)"); unknown codes are a WARN pointing at NVIDIA's table.
     */
    public static Entry judge(int code, String message) {
        Entry base = lookup(code).orElse(new Entry(code, "Xid " + code + " (not in Railyard's catalog: see "
                + "https://docs.nvidia.com/deploy/xid-errors/)", Severity.WARN, Action.HARDWARE_INSPECTION,
                "# look the code up in NVIDIA's Xid catalog before acting"));
        if (code >= 144 && code <= 150 && message.matches(".*\\bFatal\\b.*")) {
            return new Entry(code, base.name() + " (Fatal)", Severity.FAIL, Action.RESET_GPU, base.advice());
        }
        if (code == 154) {
            String m = message.toLowerCase(java.util.Locale.ROOT);
            if (m.contains("reboot")) return new Entry(code, base.name(), Severity.FAIL, Action.REBOOT_SYSTEM, "");
            if (m.contains("drain")) return new Entry(code, base.name(), Severity.FAIL, Action.HARDWARE_INSPECTION, "");
            if (m.contains("(none)") && !m.contains("reset")) return new Entry(code, base.name(), Severity.INFO, Action.NONE, "");
        }
        return base;
    }

    /** A kernel log's "0000:3b:00" as nvidia-smi -i takes a PCI bus ID: domain:bus:device.function. */
    public static String busId(String pciAddress) {
        return pciAddress.matches("[0-9A-Fa-f]{4,8}:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}") ? pciAddress + ".0" : pciAddress;
    }

    public static int size() {
        return ENTRIES.size();
    }
}
