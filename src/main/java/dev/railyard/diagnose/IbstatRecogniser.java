package dev.railyard.diagnose;

import dev.railyard.bench.TextLines;
import dev.railyard.bench.ibtools.IbstatCa;
import dev.railyard.bench.ibtools.IbstatParser;
import dev.railyard.bench.ibtools.IbstatPort;
import dev.railyard.bench.ibtools.IbstatReport;
import dev.railyard.check.Fix;
import dev.railyard.model.CheckId;
import dev.railyard.model.RdmaPort;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** ibstat: its ports judged as sysfs ports are, and a verdict for an output cut short by ibpanic. */
public record IbstatRecogniser() implements Recogniser {

    private static final Pattern CA = Pattern.compile("^CA '[^']+'\\s*$");
    /** "ibpanic: [1400444] main: stat of IB device 'mlx5_8' failed: No such file or directory" */
    private static final Pattern PANIC_DEVICE = Pattern.compile("IB device '([\\w.-]{1,64})'");

    @Override
    public ToolKind tool() {
        return ToolKind.IBSTAT;
    }

    @Override
    public List<String> signatureLiterals() {
        return List.of("CA '");
    }

    @Override
    public boolean recognises(TextLines text) {
        return text.lines().stream().anyMatch(l -> l.startsWith("CA '") && CA.matcher(l).matches());
    }

    @Override
    public ToolReading read(TextLines text, DiagnoseTargets targets) {
        IbstatReport report = new IbstatParser().parse(text.joined());
        List<Measurement> rates = new java.util.ArrayList<>();
        for (IbstatCa ca : report.adapters()) {
            for (IbstatPort p : ca.ports()) {
                if (p.rate() > 0) rates.add(new Measurement("rate of " + ca.name() + " port " + p.number(), p.rate(), "Gb/s"));
            }
        }
        return new ToolReading(diagnose(text, report), Parsed.of(report, rates));
    }

    /**
     * Every port becomes an RdmaPort judged by the rules that judge ports read from sysfs; base lid 65535 is no LID
     * (no subnet manager reached the port).
     */
    private static List<Diagnosis> diagnose(TextLines text, IbstatReport report) {
        List<RdmaPort> ports = new ArrayList<>();
        for (IbstatCa ca : report.adapters()) {
            for (IbstatPort p : ca.ports()) {
                ports.add(PastedPorts.port(ca.name(), p.number(), Reading.of(PastedPorts.state(p.state())),
                        Reading.of(PastedPorts.physState(p.physicalState())),
                        p.rate() > 0 ? Reading.of(new RdmaPort.LinkRate(p.rate(), "", p.rate() + " Gb/sec"))
                                : PastedPorts.absent(),
                        p.linkLayer().isEmpty() ? PastedPorts.absent() : Reading.of(p.linkLayer()),
                        p.baseLid() == IbstatPort.NO_LID ? PastedPorts.absent() : Reading.of(p.baseLid()),
                        Reading.of(p.smLid()), Map.of()));
            }
        }
        // an ibpanic before the first adapter leaves nothing to pass
        List<Diagnosis> out = new ArrayList<>(ports.isEmpty() && !report.complete() ? List.of()
                : PastedPorts.judge(ports, PastedPorts.Rules.STATE_AND_RATE, text));
        if (!report.complete()) {
            out.add(Diagnosis.of(CheckId.RDMA_PORT_STATE.id(), Severity.FAIL, "ibstat", "ibstat stopped before listing every adapter: "
                    + report.panicLine(), panicFix(report.panicLine()), report.panicLineNumber(),
                    report.panicLine(), "ibstat"));
        }
        return out;
    }

    /** ibpanic names the device it could not read: is it still there, and what did its driver say. */
    private static String panicFix(String line) {
        Matcher m = PANIC_DEVICE.matcher(line);
        String dev = m.find() ? m.group(1) : "";
        return Fix.lines("ls /sys/class/infiniband/", "rdma link show",
                "dmesg | grep -E 'mlx5_core|mlx4_core" + (dev.isEmpty() ? "" : "|" + dev) + "'",
                Fix.note((dev.isEmpty() ? "a device" : dev) + " vanished or its driver failed while ibstat read it: "
                        + "the driver's lines above say why"));
    }
}
