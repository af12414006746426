package dev.railyard.diagnose;

import dev.railyard.bench.TextLines;
import dev.railyard.bench.ibtools.KernelEvent;
import dev.railyard.bench.ibtools.KernelLog;
import dev.railyard.bench.ibtools.KernelLogParser;
import dev.railyard.bench.ibtools.LinkEvent;
import dev.railyard.check.rules.NetCarrierRule;
import dev.railyard.check.rules.RdmaPortStateRule;
import dev.railyard.check.rules.GpuXidRule;
import dev.railyard.check.rules.Verdict;
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
        KernelLogSummary s = new KernelLogSummary();
        KernelLogParser.Reader reader = new KernelLogParser().reader(s);
        List<String> lines = text.lines();
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            if (KernelLogParser.Reader.candidate(l)) reader.line(l, i + 1);
        }
        s.lines = text.nonBlank();
        return reading(s);
    }

    /** The verdicts and numbers of a log read line by line, in memory or streamed. */
    static ToolReading reading(KernelLogSummary s) {
        List<Measurement> numbers = new ArrayList<>(List.of(
                new Measurement("lines read", s.lines, "lines"),
                new Measurement("Xid lines", s.xidLines, "lines"),
                new Measurement("link events", s.linkLines, "lines")));
        for (KernelEvent e : s.pcie.values()) {
            e.value().ifPresent(v -> numbers.add(new Measurement("PCIe bandwidth available to " + e.device(), v,
                    "Gb/s")));
        }
        if (s.correctedMemory > 0) numbers.add(new Measurement("corrected memory errors", s.correctedMemory, "errors"));
        List<KernelLogTotals.Repeated> repeated = new ArrayList<>();
        for (KernelLogSummary.Xid x : s.xids.values()) {
            repeated.add(new KernelLogTotals.Repeated("Xid " + x.first().xid(), x.first().pciAddress(), x.count(),
                    x.first().timestamp(), x.lineNumber()));
        }
        for (KernelEventVerdicts.Group g : s.groups.values()) {
            String what = g.first().kind().name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ');
            numbers.add(new Measurement(what + " lines of " + (g.first().device().isEmpty() ? "the host"
                    : g.first().device()), g.count(), "lines"));
            repeated.add(new KernelLogTotals.Repeated(what, g.first().device(), g.count(), g.first().stamp(),
                    g.first().lineNumber()));
        }
        KernelLogTotals totals = new KernelLogTotals(s.lines, s.xidLines, s.linkLines, repeated);
        return new ToolReading(diagnose(s), Parsed.of(totals, numbers));
    }

    private static List<Diagnosis> diagnose(KernelLogSummary s) {
        List<Diagnosis> out = new ArrayList<>();
        for (LinkEvent e : s.lastLink.values()) {
            // subjects as the agent and sysfs name them: the netdev, or DEVICE:PORT
            String subject = e.port() == 0 ? e.device() : e.device() + ":" + e.port();
            switch (e.state().toUpperCase()) {
                case "INIT" -> out.add(PortVerdicts.noSubnetManager(e.device(), e.port(), subject, e.lineNumber(), e.line()));
                case "DOWN" -> out.add(new Diagnosis((e.port() == 0 ? NetCarrierRule.lastEventDown(e.device())
                        : RdmaPortStateRule.lastEventDown(e.device(), e.port())).on(subject), e.lineNumber(), e.line(),
                        "kernel log"));
                default -> { /* ACTIVE / up: the link came up */ }
            }
        }
        out.addAll(XidCauses.earlier(s.xids.values(), THIS_NODE));
        for (KernelLogSummary.Xid x : s.xids.values()) {
            XidEvent first = x.first();
            String observed = "Xid " + first.xid() + ": " + GpuXidRule.worst(List.of(x.worst())).name()
                    + (x.count() > 1 ? " (" + x.count() + " times)" : "");
            Verdict v = GpuXidRule.verdict(List.of(x.worst()), observed, THIS_NODE);
            out.add(Diagnosis.of(v, "GPU " + GpuXidRule.address(first),
                    x.lineNumber(), first.line(), "Xid catalog"));
        }
        if (s.xids.values().stream().noneMatch(x -> x.first().xid() == 79) && s.fallen != null) {
            Verdict v = GpuXidRule.fallenWithoutXid(s.fallen, THIS_NODE);
            out.add(Diagnosis.of(v, "GPU", s.fallenLine, s.fallen,
                    "Xid catalog"));
        }
        out.addAll(KernelEventVerdicts.judge(s.groups.values(), s.memoryEvents()));
        if (out.isEmpty()) {
            TreeSet<String> devices = new TreeSet<>(s.lastLink.keySet());
            out.add(Diagnosis.of(CheckId.GPU_XID.id(), Severity.PASS, "kernel log", "no GPU/NIC/PCIe/memory errors in "
                    + s.lines + " lines" + (devices.isEmpty() ? "" : "; links ended up: " + devices), "", 0, "",
                    "kernel log"));
        }
        return out;
    }
}
