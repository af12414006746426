package dev.railyard.diagnose;

import dev.railyard.bench.TextLines;
import dev.railyard.bench.ibtools.IbstatCa;
import dev.railyard.bench.ibtools.IbstatParser;
import dev.railyard.bench.ibtools.IbstatPort;
import dev.railyard.bench.ibtools.IbstatReport;
import dev.railyard.check.Fix;
import dev.railyard.model.CheckId;
import dev.railyard.model.Severity;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** ibstat: a verdict per port that is not Active, and one for an output cut short by ibpanic. */
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

    private static List<Diagnosis> diagnose(TextLines text, IbstatReport report) {
        List<Diagnosis> out = new ArrayList<>();
        int active = 0, total = 0;
        for (IbstatCa ca : report.adapters()) {
            for (IbstatPort p : ca.ports()) {
                total++;
                String subject = ca.name() + " port " + p.number();
                int n = portLine(text, ca.name());
                if (p.active()) {
                    active++;
                } else if (p.state().equalsIgnoreCase("Initializing")) {
                    out.add(PortVerdicts.noSubnetManager(subject, n, text.line(n)));
                } else if (p.physicalState().equalsIgnoreCase("LinkUp") && p.baseLid() == IbstatPort.NO_LID) {
                    out.add(Diagnosis.of(CheckId.RDMA_PORT_STATE.id(), Severity.FAIL, subject,
                            "State " + p.state() + " with Physical state LinkUp and LID 65535: the cable is fine but "
                                    + "no subnet manager has brought the port up (or this SR-IOV VF is not enabled "
                                    + "in the SM)", noLidFix(ca.name(), p.number()), n, text.line(n),
                            "realdata/ib-tools"));
                } else if (ca.ports().stream().anyMatch(IbstatPort::active)) {
                    out.add(PortVerdicts.unused(subject, p.state() + "/" + p.physicalState(), n, text.line(n)));
                } else {
                    out.add(PortVerdicts.down(subject, p.state() + "/" + p.physicalState(), n, text.line(n)));
                }
            }
        }
        if (!report.complete()) {
            out.add(Diagnosis.of(CheckId.RDMA_PORT_STATE.id(), Severity.FAIL, "ibstat", "ibstat stopped before listing every adapter: "
                    + report.panicLine(), panicFix(report.panicLine()), report.panicLineNumber(),
                    report.panicLine(), "ibstat"));
        }
        if (out.isEmpty()) {
            out.add(Diagnosis.of(CheckId.RDMA_PORT_STATE.id(), Severity.PASS, "ibstat", active + " of " + total + " ports Active", "", 0, "",
                    "ibstat"));
        }
        return out;
    }

    /**
     * A port with link but no LID. Where a subnet manager runs, the other Active ports show its LID; an SR-IOV VF
     * gets a LID only once its PF's port is Active and the VF has a GUID the SM accepts (ip link lists them on the PF).
     */
    private static String noLidFix(String ca, int port) {
        return Fix.lines(Fix.note("a subnet manager gives every Active port a LID and its own as SM lid:"),
                "ibstat | grep -E \"^CA|State:|Base lid:|SM lid:\"",
                Fix.note("none runs:"), Fix.START_SUBNET_MANAGER,
                Fix.note("one runs and " + ca + " port " + port + " is an SR-IOV VF: its PF's port must be Active "
                        + "and the VF's GUID set, as the PF lists it:"), "ip link show");
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

    private static int portLine(TextLines text, String ca) {
        return text.find("CA '" + ca + "'");
    }
}
