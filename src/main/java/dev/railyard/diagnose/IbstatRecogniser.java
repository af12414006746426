package dev.railyard.diagnose;

import dev.railyard.bench.TextLines;
import dev.railyard.bench.ibtools.IbstatCa;
import dev.railyard.bench.ibtools.IbstatParser;
import dev.railyard.bench.ibtools.IbstatPort;
import dev.railyard.bench.ibtools.IbstatReport;
import dev.railyard.model.CheckId;
import dev.railyard.model.Severity;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/** ibstat: a verdict per port that is not Active, and one for an output cut short by ibpanic. */
public record IbstatRecogniser() implements Recogniser {

    private static final Pattern CA = Pattern.compile("^CA '[^']+'\\s*$");

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
        return new ToolReading(diagnose(text, report), Parsed.of(report, List.of()));
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
                                    + "in the SM)", "run OpenSM on the fabric (sudo systemctl enable --now opensm); "
                                    + "for a VF, check its GUID is set and the PF port is Active", n, text.line(n),
                            "realdata/ib-tools"));
                } else {
                    out.add(PortVerdicts.down(subject, p.state() + "/" + p.physicalState(), n, text.line(n)));
                }
            }
        }
        if (!report.complete()) {
            out.add(Diagnosis.of(CheckId.RDMA_PORT_STATE.id(), Severity.FAIL, "ibstat", "ibstat stopped before listing every adapter: "
                    + report.panicLine(), "the named device vanished or its driver failed: check dmesg for "
                    + "mlx5_core errors and 'rdma link show'", report.panicLineNumber(), report.panicLine(), "ibstat"));
        }
        if (out.isEmpty()) {
            out.add(Diagnosis.of(CheckId.RDMA_PORT_STATE.id(), Severity.PASS, "ibstat", active + " of " + total + " ports Active", "", 0, "",
                    "ibstat"));
        }
        return out;
    }

    private static int portLine(TextLines text, String ca) {
        return text.find("CA '" + ca + "'");
    }
}
