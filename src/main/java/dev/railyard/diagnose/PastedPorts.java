package dev.railyard.diagnose;

import dev.railyard.bench.TextLines;
import dev.railyard.check.CheckInput;
import dev.railyard.check.RdmaCountersCheck;
import dev.railyard.check.RdmaPortCheck;
import dev.railyard.check.RdmaRateCheck;
import dev.railyard.model.Finding;
import dev.railyard.model.GpuInventory;
import dev.railyard.model.HostInfo;
import dev.railyard.model.NodeInventory;
import dev.railyard.model.PcieTopology;
import dev.railyard.model.RdmaDevice;
import dev.railyard.model.RdmaPort;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Ports read from a paste (ibstatus, ibportstate, iblinkinfo, rdma link, mlxlink, perfquery) judged by the checks
 * that judge ports read from sysfs: the same rules, thresholds and fixes. A paste is not a spec, so every port is
 * unbound: a Down port with no other context is a WARN (it may be unused), INIT on InfiniBand is a FAIL. A field the
 * paste does not show is named in an INFO, not judged.
 */
final class PastedPorts {

    private static final String SOURCE = "the rule that judges ports read from sysfs";

    private PastedPorts() {
    }

    enum Rules { STATE_AND_RATE, COUNTERS }

    static List<Diagnosis> judge(List<RdmaPort> ports, Rules rules, TextLines text) {
        Map<String, List<RdmaPort>> byDevice = new LinkedHashMap<>();
        for (RdmaPort p : ports) byDevice.computeIfAbsent(p.device(), d -> new ArrayList<>()).add(p);
        List<RdmaDevice> devices = new ArrayList<>();
        byDevice.forEach((name, ps) -> devices.add(new RdmaDevice(name, absent(), absent(), absent(), absent(),
                absent(), ps)));
        CheckInput in = CheckInput.withoutSpec(inventory(devices));
        List<Finding> findings = switch (rules) {
            case STATE_AND_RATE -> {
                List<Finding> f = new ArrayList<>(new RdmaPortCheck().run(in));
                f.addAll(new RdmaRateCheck().run(in));
                yield f;
            }
            case COUNTERS -> new RdmaCountersCheck().run(in);
        };
        List<Diagnosis> out = new ArrayList<>();
        List<String> notShown = new ArrayList<>();
        int pass = 0;
        for (Finding f : findings) {
            if (f.severity() == Severity.PASS) {
                pass++;
            } else if (f.severity() == Severity.UNKNOWN) {
                notShown.add(f.subject() + " " + f.id());
            } else if (!(f.severity() == Severity.INFO && f.remediation().isEmpty() && f.id().endsWith("rate"))) {
                int n = lineOf(text, f.subject());
                out.add(new Diagnosis(f, n, n > 0 ? text.line(n) : "", SOURCE));
            }
        }
        if (!notShown.isEmpty()) {
            out.add(Diagnosis.of("diagnose.partial", Severity.INFO, "paste", "not in the paste, so not judged: "
                    + String.join(", ", notShown), "", 0, "", SOURCE));
        }
        if (out.stream().noneMatch(d -> d.severity().atLeast(Severity.WARN))) {
            out.add(Diagnosis.of(findings.isEmpty() ? "diagnose.ports" : findings.getFirst().id(), Severity.PASS,
                    ports.size() + " port" + (ports.size() == 1 ? "" : "s"), pass + " port checks passed", "", 0, "",
                    SOURCE));
        }
        return out;
    }

    /** The first line naming the port's device (and its port number where the line has one). */
    private static int lineOf(TextLines text, String ref) {
        int colon = ref.lastIndexOf(':');
        String device = colon > 0 ? ref.substring(0, colon) : ref;
        String port = colon > 0 ? ref.substring(colon + 1) : "";
        List<String> lines = text.lines();
        int deviceOnly = 0;
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            if (!l.contains(device)) continue;
            if (deviceOnly == 0) deviceOnly = i + 1;
            if (!port.isEmpty() && (l.contains("port " + port) || l.contains(device + "/" + port))) return i + 1;
        }
        return deviceOnly;
    }

    static NodeInventory inventory(List<RdmaDevice> devices) {
        HostInfo host = new HostInfo(absent(), absent(), absent(), absent(), absent(), absent(), absent(), List.of());
        return new NodeInventory("pasted", Instant.EPOCH, "", host, List.of(),
                new GpuInventory(absent(), List.of()), devices, List.of(), new PcieTopology(List.of(), List.of()),
                absent());
    }

    static <T> Reading<T> absent() {
        return Reading.absent("not in the paste");
    }

    /** "4: ACTIVE", "Active", "ACTIVE", "PORT_ACTIVE", "Down" as the kernel's code and name. */
    static RdmaPort.PortState state(String text) {
        String t = text.strip().replaceFirst("^\\d+:\\s*", "").replaceFirst("^PORT_", "");
        String u = t.toUpperCase(Locale.ROOT);
        int code = switch (u) {
            case "DOWN" -> RdmaPort.PortState.DOWN;
            case "INIT", "INITIALIZE", "INITIALIZING" -> RdmaPort.PortState.INIT;
            case "ARMED" -> RdmaPort.PortState.ARMED;
            case "ACTIVE" -> RdmaPort.PortState.ACTIVE;
            case "ACTIVE_DEFER" -> RdmaPort.PortState.ACTIVE_DEFER;
            default -> 0;
        };
        return new RdmaPort.PortState(code, u);
    }

    /** "5: LinkUp", "LinkUp", "LINK_UP", "Polling", "Disabled" as the kernel's phys_state code and name. */
    static RdmaPort.PortState physState(String text) {
        String t = text.strip().replaceFirst("^\\d+:\\s*", "");
        String key = t.toUpperCase(Locale.ROOT).replace("_", "");
        int code = switch (key) {
            case "SLEEP" -> RdmaPort.PortState.PHYS_SLEEP;
            case "POLLING" -> RdmaPort.PortState.PHYS_POLLING;
            case "DISABLED" -> RdmaPort.PortState.PHYS_DISABLED;
            case "PORTCONFIGURATIONTRAINING", "TRAINING" -> RdmaPort.PortState.PHYS_TRAINING;
            case "LINKUP" -> RdmaPort.PortState.PHYS_LINK_UP;
            case "LINKERRORRECOVERY" -> RdmaPort.PortState.PHYS_LINK_ERROR_RECOVERY;
            case "PHYTEST" -> RdmaPort.PortState.PHYS_PHY_TEST;
            default -> 0;
        };
        return new RdmaPort.PortState(code, code == RdmaPort.PortState.PHYS_LINK_UP ? "LinkUp" : t);
    }

    /** A port with what a paste shows; everything else absent. */
    static RdmaPort port(String device, int port, Reading<RdmaPort.PortState> state,
                         Reading<RdmaPort.PortState> phys, Reading<RdmaPort.LinkRate> rate, Reading<String> layer,
                         Reading<Integer> lid, Reading<Integer> smLid, Map<String, Reading<Long>> counters) {
        return new RdmaPort(device, port, state, phys, rate, layer, lid, smLid, List.of(), counters, Map.of());
    }
}
