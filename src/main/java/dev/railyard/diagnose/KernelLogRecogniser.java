package dev.railyard.diagnose;

import dev.railyard.bench.TextLines;
import dev.railyard.bench.ibtools.KernelEvent;
import dev.railyard.bench.ibtools.KernelLog;
import dev.railyard.bench.ibtools.KernelLogParser;
import dev.railyard.bench.ibtools.LinkEvent;
import dev.railyard.check.Fix;
import dev.railyard.check.ShellWord;
import dev.railyard.check.XidCatalog;
import dev.railyard.model.CheckId;
import dev.railyard.model.Severity;
import dev.railyard.model.XidEvent;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * dmesg / journalctl -k: the last state each mlx5 link reached (INIT then ACTIVE is a normal bring-up, INIT alone
 * means no subnet manager), one verdict per distinct Xid code and GPU, and the hardware error reports of
 * {@link KernelEventVerdicts}. A log with none of them is a PASS that says how many lines it covered.
 */
public record KernelLogRecogniser() implements Recogniser {

    /** dmesg "[    3.027370]", dmesg -T "[Mon Oct  3 13:52:42 2022]", dmesg --time-format=iso, journalctl/syslog. */
    private static final Pattern STAMP = Pattern.compile("^\\s*\\[\\s*\\d{1,8}\\.\\d{3,9}]|^\\[[A-Z][a-z]{2} [A-Z][a-z]{2} [ \\d]\\d "
            + "\\d\\d:\\d\\d:\\d\\d \\d{4}]|^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d[.,]\\d+[+\\-]\\d\\d:?\\d\\d |^\\S+ +[ \\d]\\d \\d\\d:\\d\\d:\\d\\d "
            + "(?:\\S+ )?kernel: |^.{0,64}\\bkernel: |^kern +:\\w+ *: ");
    /** Lines a kernel log has and tool output does not, enough to recognise a short grep of a log. */
    private static final LinePattern SIGNATURE = LinePattern.compile("NVRM: |mlx5_core |mlx4_core |EDAC |pcieport |"
            + "PCIe Bus Error|\\[Hardware Error]|available PCIe bandwidth|: probe of \\S+ failed with error|NETDEV WATCHDOG|"
            + "Detected Hardware Unit Hang|Detected Tx Unit Hang|TX timeout detected|I/O error, dev|Buffer I/O error|"
            + "nvme nvme\\d|amdgpu|NVRM |SXid \\(|probe with driver|error message received from");
    /** Enough lines to tell a log by its stamps; a log does not change its format further down. */
    private static final int SAMPLE = 2000;
    /** A pasted log does not say which node it came from: the fix names the node it is run on. */
    private static final String THIS_NODE = "$(hostname -s)";

    @Override
    public ToolKind tool() {
        return ToolKind.KERNEL_LOG;
    }

    @Override
    public boolean recognises(TextLines text) {
        int nonBlank = 0, stamped = 0;
        for (String l : text.lines()) {
            if (l.isBlank()) continue;
            if (++nonBlank > SAMPLE) break;
            if (SIGNATURE.find(l)) return true;
            if (STAMP.matcher(l).find()) stamped++;
        }
        return stamped > 0 && stamped * 2 >= Math.min(nonBlank, SAMPLE);
    }

    @Override
    public ToolReading read(TextLines text, DiagnoseTargets targets) {
        KernelLog log = new KernelLogParser().parse(text);
        List<Measurement> numbers = new ArrayList<>(List.of(
                new Measurement("lines read", log.lines(), "lines"),
                new Measurement("Xid lines", log.xids().size(), "lines"),
                new Measurement("link events", log.linkEvents().size(), "lines")));
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (KernelEvent e : log.events()) {
            if ((e.kind() == KernelEvent.Kind.PCIE_FULL || e.kind() == KernelEvent.Kind.PCIE_LIMITED)
                    && seen.add(e.device())) {
                e.value().ifPresent(v -> numbers.add(new Measurement("PCIe bandwidth available to " + e.device(), v,
                        "Gb/s")));
            }
        }
        double corrected = log.events().stream().filter(e -> e.kind() == KernelEvent.Kind.MEMORY_CORRECTED)
                .mapToDouble(e -> e.value().orElse(0)).sum();
        if (corrected > 0) numbers.add(new Measurement("corrected memory errors", corrected, "errors"));
        numbers.addAll(KernelEventVerdicts.counts(log.events()));
        return new ToolReading(diagnose(text, log), Parsed.of(log, numbers));
    }

    private static List<Diagnosis> diagnose(TextLines text, KernelLog log) {
        Map<String, LinkEvent> last = new LinkedHashMap<>();
        for (LinkEvent e : log.linkEvents()) last.put(e.device() + "/" + e.port(), e);
        List<Diagnosis> out = new ArrayList<>();
        for (LinkEvent e : last.values()) {
            String subject = e.port() == 0 ? e.device() : e.device() + " port " + e.port();
            switch (e.state().toUpperCase()) {
                case "INIT" -> out.add(PortVerdicts.noSubnetManager(subject, e.lineNumber(), e.line()));
                case "DOWN" -> out.add(Diagnosis.of(CheckId.RDMA_PORT_STATE.id(), e.port() == 0 ? Severity.WARN : Severity.FAIL, subject,
                        "the last link event is DOWN", linkDownFix(e, subject), e.lineNumber(), e.line(),
                        "kernel log"));
                default -> { /* ACTIVE / up: the link came up */ }
            }
        }
        Map<String, XidEvent> firstPerCode = new LinkedHashMap<>();
        for (XidEvent x : log.xids()) firstPerCode.putIfAbsent(x.pciAddress() + "/" + x.xid(), x);
        out.addAll(XidCauses.earlier(text, log.xids(), THIS_NODE));
        for (XidEvent x : firstPerCode.values()) {
            XidCatalog.Entry a = XidCatalog.judge(x.xid(), x.message());
            long count = log.xids().stream().filter(o -> o.xid() == x.xid() && o.pciAddress().equals(x.pciAddress()))
                    .count();
            out.add(Diagnosis.of(CheckId.GPU_XID.id(), a.severity(), "GPU " + x.pciAddress(), "Xid " + x.xid() + ": "
                    + a.name() + (count > 1 ? " (" + count + " times)" : ""),
                    a.remediation(XidCatalog.busId(x.pciAddress()), THIS_NODE),
                    lineOf(text, x.line()), x.line(), "Xid catalog"));
        }
        if (log.xids().stream().noneMatch(x -> x.xid() == 79) && !log.fallenOffBus().isEmpty()) {
            String line = log.fallenOffBus().getFirst();
            XidCatalog.Entry a = XidCatalog.judge(79, line);
            out.add(Diagnosis.of(CheckId.GPU_XID.id(), a.severity(), "GPU", a.name() + " (no Xid line printed)",
                    a.remediation("", THIS_NODE), lineOf(text, line), line, "Xid catalog"));
        }
        out.addAll(KernelEventVerdicts.judge(log.events()));
        if (out.isEmpty()) {
            TreeSet<String> devices = new TreeSet<>(last.keySet());
            out.add(Diagnosis.of(CheckId.GPU_XID.id(), Severity.PASS, "kernel log", "no GPU/NIC/PCIe/memory errors in "
                    + log.lines() + " lines" + (devices.isEmpty() ? "" : "; links ended up: " + devices), "", 0, "",
                    "kernel log"));
        }
        return out;
    }

    /** The link's state now (the log may be old), then the hand step if it is still down. */
    private static String linkDownFix(LinkEvent e, String subject) {
        String dev = ShellWord.of(e.device());
        String now = e.port() == 0
                ? Fix.lines("ip link show dev " + dev, "ethtool " + dev + " | grep -E 'Speed|Link detected'")
                : Fix.lines("ibstat " + dev + " " + e.port(), "rdma link show " + ShellWord.of(e.device() + "/"
                        + e.port()));
        return Fix.lines(now, Fix.note("still down: check the cable and the switch port of " + subject));
    }

    private static int lineOf(TextLines text, String line) {
        return text.lines().indexOf(line) + 1;
    }
}
