package dev.railyard.diagnose;

import dev.railyard.bench.TextLines;
import dev.railyard.bench.ibtools.KernelLog;
import dev.railyard.bench.ibtools.KernelLogParser;
import dev.railyard.bench.ibtools.LinkEvent;
import dev.railyard.check.XidCatalog;
import dev.railyard.model.CheckId;
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
    public ToolReading read(TextLines text, DiagnoseTargets targets) {
        KernelLog log = new KernelLogParser().parse(text.joined());
        return new ToolReading(diagnose(text, log), Parsed.of(log, List.of(
                new Measurement("Xid lines", log.xids().size(), "lines"),
                new Measurement("link events", log.linkEvents().size(), "lines"))));
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
                        "the last link event is DOWN", "check the cable and the switch port; 'ibstat' / "
                        + "'ip link show' for the current state", e.lineNumber(), e.line(), "kernel log"));
                default -> { /* ACTIVE / up: the link came up */ }
            }
        }
        Map<String, XidEvent> firstPerCode = new LinkedHashMap<>();
        for (XidEvent x : log.xids()) firstPerCode.putIfAbsent(x.pciAddress() + "/" + x.xid(), x);
        for (XidEvent x : firstPerCode.values()) {
            XidCatalog.Entry a = XidCatalog.judge(x.xid(), x.message());
            long count = log.xids().stream().filter(o -> o.xid() == x.xid() && o.pciAddress().equals(x.pciAddress()))
                    .count();
            out.add(Diagnosis.of(CheckId.GPU_XID.id(), a.severity(), "GPU " + x.pciAddress(), "Xid " + x.xid() + ": "
                    + a.name() + (count > 1 ? " (" + count + " times)" : ""), a.remediation(),
                    lineOf(text, x.line()), x.line(), "Xid catalog"));
        }
        if (log.xids().stream().noneMatch(x -> x.xid() == 79) && !log.fallenOffBus().isEmpty()) {
            String line = log.fallenOffBus().getFirst();
            XidCatalog.Entry a = XidCatalog.judge(79, line);
            out.add(Diagnosis.of(CheckId.GPU_XID.id(), a.severity(), "GPU", a.name() + " (no Xid line printed)",
                    a.remediation(), lineOf(text, line), line, "Xid catalog"));
        }
        if (out.isEmpty()) {
            TreeSet<String> devices = new TreeSet<>(last.keySet());
            out.add(Diagnosis.of(CheckId.GPU_XID.id(), Severity.PASS, "kernel log", "no Xid; links ended up: " + devices, "", 0, "",
                    "kernel log"));
        }
        return out;
    }

    private static int lineOf(TextLines text, String line) {
        return text.lines().indexOf(line) + 1;
    }
}
