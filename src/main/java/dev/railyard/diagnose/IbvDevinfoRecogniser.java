package dev.railyard.diagnose;

import dev.railyard.bench.TextLines;
import dev.railyard.bench.ibtools.IbvDevice;
import dev.railyard.bench.ibtools.IbvDevinfoParser;
import dev.railyard.bench.ibtools.IbvPort;
import dev.railyard.model.CheckId;
import dev.railyard.model.Severity;

import java.util.ArrayList;
import java.util.List;

/** ibv_devinfo: a verdict per port not in PORT_ACTIVE. */
public record IbvDevinfoRecogniser() implements Recogniser {

    @Override
    public ToolKind tool() {
        return ToolKind.IBV_DEVINFO;
    }

    @Override
    public List<String> signatureLiterals() {
        return List.of("hca_id:");
    }

    @Override
    public boolean recognises(TextLines text) {
        return text.lines().stream().anyMatch(l -> l.startsWith("hca_id:"));
    }

    @Override
    public ToolReading read(TextLines text, DiagnoseTargets targets) {
        List<IbvDevice> devices = new IbvDevinfoParser().parse(text.joined());
        return new ToolReading(diagnose(text, devices), Parsed.of(new Devices(devices), List.of()));
    }

    /** ibv_devinfo's parser returns a list; JSON wants a record around it. */
    public record Devices(List<IbvDevice> devices) {}

    private static List<Diagnosis> diagnose(TextLines text, List<IbvDevice> devices) {
        List<Diagnosis> out = new ArrayList<>();
        int total = 0;
        for (IbvDevice d : devices) {
            for (IbvPort p : d.ports()) {
                total++;
                if (p.active()) {
                    // RoCE carries what the netdev MTU allows: 1024 means the interface is at 1500 (or less)
                    if (p.linkLayer().equalsIgnoreCase("Ethernet") && p.activeMtu() > 0 && p.activeMtu() <= 1024) {
                        int n = text.find(d.hcaId());
                        out.add(Diagnosis.of(CheckId.RDMA_NETDEV_MTU.id(), Severity.WARN, d.hcaId() + " port " + p.number(),
                                "RoCE active_mtu " + p.activeMtu() + ": the netdev MTU is 1500 or less, so RDMA "
                                        + "messages go out in 1 KiB packets",
                                "raise the netdev MTU to 9000 on both ends and every switch port between them "
                                        + "(ip link set dev NETDEV mtu 9000; netplan/NetworkManager to keep it)",
                                n, text.line(n), "issue 9"));
                    }
                    continue;
                }
                int n = text.find("hca_id:\t" + d.hcaId());
                if (n == 0) n = text.find(d.hcaId());
                String subject = d.hcaId() + " port " + p.number();
                out.add(p.state().equals("PORT_INIT")
                        ? PortVerdicts.noSubnetManager(subject, n, text.line(n))
                        : PortVerdicts.down(subject, p.state(), n, text.line(n)));
            }
        }
        if (out.isEmpty()) {
            out.add(Diagnosis.of(CheckId.RDMA_PORT_STATE.id(), Severity.PASS, "ibv_devinfo", "all " + total + " ports PORT_ACTIVE", "", 0, "",
                    "ibv_devinfo"));
        }
        return out;
    }
}
