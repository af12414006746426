package dev.railyard.diagnose;

import dev.railyard.bench.TextLines;
import dev.railyard.bench.ibtools.IbvDevice;
import dev.railyard.bench.ibtools.IbvDevinfoParser;
import dev.railyard.bench.ibtools.IbvPort;
import dev.railyard.check.rules.RdmaNetdevMtuRule;
import dev.railyard.model.RdmaPort;
import dev.railyard.model.Reading;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** ibv_devinfo: its ports judged as sysfs ports are, and a RoCE port whose active MTU is 1024 or less. */
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

    /** Every port judged by the rules that judge sysfs ports; an active RoCE port's MTU on top. */
    private static List<Diagnosis> diagnose(TextLines text, List<IbvDevice> devices) {
        List<Diagnosis> out = new ArrayList<>();
        List<RdmaPort> ports = new ArrayList<>();
        for (IbvDevice d : devices) {
            for (IbvPort p : d.ports()) {
                ports.add(PastedPorts.port(d.hcaId(), p.number(), Reading.of(PastedPorts.state(p.state())),
                        PastedPorts.absent(), PastedPorts.absent(),
                        p.linkLayer().isEmpty() ? PastedPorts.absent() : Reading.of(p.linkLayer()),
                        Reading.of(p.portLid()), Reading.of(p.smLid()), Map.of()));
                // RoCE carries what the netdev MTU allows: 1024 means the interface is at 1500 (or less)
                if (p.active() && p.linkLayer().equalsIgnoreCase("Ethernet")) {
                    int n = text.find(d.hcaId());
                    RdmaNetdevMtuRule.activeMtu(d.hcaId(), p.number(), p.activeMtu()).ifPresent(v -> out.add(
                            new Diagnosis(v.on(d.hcaId() + " port " + p.number()), n, text.line(n), "ibv_devinfo")));
                }
            }
        }
        out.addAll(0, PastedPorts.judge(ports, PastedPorts.Rules.STATE_AND_RATE, text));
        return out;
    }
}
