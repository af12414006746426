package dev.railyard.diagnose;

import dev.railyard.bench.TextLines;
import dev.railyard.bench.ibtools.IbvDevice;
import dev.railyard.bench.ibtools.IbvDevinfoParser;
import dev.railyard.bench.ibtools.IbvPort;
import dev.railyard.check.Fix;
import dev.railyard.check.ShellWord;
import dev.railyard.model.CheckId;
import dev.railyard.model.RdmaPort;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;

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

    /**
     * The port's netdev to MTU 9000 now and at boot (a netplan drop-in). ibv_devinfo does not name the netdev; the
     * kernel does, as the netdev of the port's first GID.
     */
    private static String mtuFix(String hca, int port) {
        String netdev = "$(cat " + ShellWord.of("/sys/class/infiniband/" + hca + "/ports/" + port
                + "/gid_attrs/ndevs/0") + ")";
        String yaml = "network:\\n  version: 2\\n  ethernets:\\n    %s:\\n      mtu: 9000\\n";
        String file = "/etc/netplan/90-railyard-$n-mtu.yaml";
        return Fix.lines(Fix.note("RoCE packets take the netdev's MTU: 9000 here, on the other end and on every "
                        + "switch port between them"),
                "ip link set dev \"" + netdev + "\" mtu 9000",
                Fix.note("and at boot:"),
                "for n in " + netdev + "; do printf '" + yaml + "' \"$n\" > \"" + file + "\" && chmod 600 \"" + file
                        + "\"; done && netplan apply");
    }

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
                if (p.active() && p.linkLayer().equalsIgnoreCase("Ethernet") && p.activeMtu() > 0
                        && p.activeMtu() <= 1024) {
                    int n = text.find(d.hcaId());
                    out.add(Diagnosis.of(CheckId.RDMA_NETDEV_MTU.id(), Severity.WARN, d.hcaId() + " port " + p.number(),
                            "RoCE active_mtu " + p.activeMtu() + ": the netdev MTU is 1500 or less, so RDMA "
                                    + "messages go out in 1 KiB packets",
                            mtuFix(d.hcaId(), p.number()),
                            n, text.line(n), "ibv_devinfo"));
                }
            }
        }
        out.addAll(0, PastedPorts.judge(ports, PastedPorts.Rules.STATE_AND_RATE, text));
        return out;
    }
}
