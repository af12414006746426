package dev.railyard.diagnose;

import dev.railyard.bench.TextLines;
import dev.railyard.bench.ibtools.KernelLog;
import dev.railyard.bench.ibtools.KernelLogParser;
import dev.railyard.bench.ibtools.LinkEvent;
import dev.railyard.model.Severity;
import dev.railyard.model.XidEvent;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * dmesg / journalctl -k: the last state each mlx5 link reached (INIT then ACTIVE is a normal bring-up, INIT alone
 * means no subnet manager) and one verdict per distinct Xid code and GPU.
 */
public record KernelLogRecogniser() implements Recogniser {

    @Override
    public ToolKind tool() {
        return ToolKind.KERNEL_LOG;
    }

    @Override
    public boolean recognises(TextLines text) {
        return text.find("NVRM: ") > 0 || text.find("mlx5_core ") > 0 || text.find("kernel: ") > 0;
    }

    @Override
    public List<Diagnosis> diagnose(TextLines text) {
        KernelLog log = new KernelLogParser().parse(text.joined());
        Map<String, LinkEvent> last = new LinkedHashMap<>();
        for (LinkEvent e : log.linkEvents()) last.put(e.device() + "/" + e.port(), e);
        List<Diagnosis> out = new ArrayList<>();
        for (LinkEvent e : last.values()) {
            String subject = e.port() == 0 ? e.device() : e.device() + " port " + e.port();
            switch (e.state().toUpperCase()) {
                case "INIT" -> out.add(PortVerdicts.noSubnetManager(subject, e.lineNumber(), e.line()));
                case "DOWN" -> out.add(new Diagnosis(e.port() == 0 ? Severity.WARN : Severity.FAIL, subject,
                        "the last link event is DOWN", "check the cable and the switch port; 'ibstat' / "
                        + "'ip link show' for the current state", e.lineNumber(), e.line(), "kernel log"));
                default -> { /* ACTIVE / up: the link came up */ }
            }
        }
        Map<String, XidEvent> firstPerCode = new LinkedHashMap<>();
        for (XidEvent x : log.xids()) firstPerCode.putIfAbsent(x.pciAddress() + "/" + x.xid(), x);
        for (XidEvent x : firstPerCode.values()) {
            XidAdvice a = XidAdvice.of(x.xid());
            long count = log.xids().stream().filter(o -> o.xid() == x.xid() && o.pciAddress().equals(x.pciAddress()))
                    .count();
            out.add(new Diagnosis(a.severity(), "GPU " + x.pciAddress(), "Xid " + x.xid() + ": " + a.meaning()
                    + (count > 1 ? " (" + count + " times)" : ""), a.action(), lineOf(text, x.line()), x.line(),
                    "Xid catalog"));
        }
        if (log.xids().stream().noneMatch(x -> x.xid() == 79) && !log.fallenOffBus().isEmpty()) {
            String line = log.fallenOffBus().getFirst();
            XidAdvice a = XidAdvice.of(79);
            out.add(new Diagnosis(a.severity(), "GPU", a.meaning() + " (no Xid line printed)", a.action(),
                    lineOf(text, line), line.strip(), "Xid catalog"));
        }
        if (out.isEmpty()) {
            TreeSet<String> devices = new TreeSet<>(last.keySet());
            out.add(new Diagnosis(Severity.PASS, "kernel log", "no Xid; links ended up: " + devices, "", 0, "",
                    "kernel log"));
        }
        return out;
    }

    private static int lineOf(TextLines text, String line) {
        return text.lines().indexOf(line) + 1;
    }
}
