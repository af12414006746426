package dev.railyard.check;

import dev.railyard.model.CheckId;
import dev.railyard.model.Finding;
import dev.railyard.model.RdmaPort;
import dev.railyard.model.RdmaPort.PortState;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * rdma.port.state (not ACTIVE; INIT on InfiniBand means no subnet manager), rdma.port.phys (not LinkUp: Polling means
 * no cable or no peer) and rdma.ib.sm (an InfiniBand link that is up but has sm_lid 0). Ports the spec binds must be
 * up (FAIL); without a spec a DOWN port may just be unused (a fabric may cable 1 port of 4), so it is a WARN. A port the spec
 * binds that is not on the node at all is an rdma.port.state FAIL naming the likely cause (an RDMA driver not loaded).
 */
public final class RdmaPortCheck implements Check {

    static final String STATE = CheckId.RDMA_PORT_STATE.id();
    static final String PHYS = CheckId.RDMA_PORT_PHYS.id();
    static final String SM = CheckId.RDMA_IB_SM.id();
    static final String OPENSM = Fix.START_SUBNET_MANAGER;

    @Override
    public String id() {
        return "rdma.port";
    }

    @Override
    public List<String> ids() {
        return List.of("rdma.port", SM);
    }

    @Override
    public List<Finding> run(CheckInput in) {
        List<Finding> out = new ArrayList<>();
        for (RdmaPort p : in.ports()) {
            boolean bound = in.bindingFor(p).isPresent();
            boolean unusedBySpec = in.spec().isPresent() && !bound;
            out.add(state(p, bound, unusedBySpec));
            out.add(phys(p, bound, unusedBySpec));
            sm(p).ifPresent(out::add);
        }
        out.addAll(missing(in));
        return out;
    }

    /** A port the spec binds that this node does not have: FAIL, with the likely cause rather than a spec edit. */
    private static List<Finding> missing(CheckInput in) {
        List<Finding> out = new ArrayList<>();
        for (CheckInput.Bound b : in.bindings()) {
            if (b.binding().rdma().isEmpty()) continue;
            var ref = b.binding().rdma().get();
            String subject = ref.device() + ":" + ref.port();
            String expected = "port of network " + b.network().name();
            boolean portThere = in.ports().stream().anyMatch(p -> p.device().equals(ref.device()) && p.port() == ref.port());
            if (portThere) continue;
            var device = in.inventory().rdmaDevices().stream().filter(d -> d.name().equals(ref.device())).findFirst();
            if (device.isPresent()) {
                String ports = device.get().ports().stream().map(p -> String.valueOf(p.port())).collect(Collectors.joining(", "));
                out.add(Finding.of(STATE, Severity.FAIL, subject, ref.device() + " has no port " + ref.port()
                                + " (ports: " + (ports.isEmpty() ? "none" : ports) + ")", expected,
                        Fix.lines(Fix.note("a single-port card, or the spec means another port"),
                                "ls " + ShellWord.of("/sys/class/infiniband/" + ref.device() + "/ports/"))));
                continue;
            }
            MissingRdmaDevice why = MissingRdmaDevice.of(in, ref.device());
            out.add(Finding.of(STATE, Severity.FAIL, subject, why.observed(), expected, why.remediation()));
        }
        return out;
    }

    private static Finding state(RdmaPort p, boolean bound, boolean unusedBySpec) {
        String expected = "4: ACTIVE";
        if (!(p.state() instanceof Reading.Present<PortState>(PortState s))) return Finding.unknown(STATE, p.ref(), p.state(), expected);
        String observed = s.code() + ": " + s.name();
        if (s.code() == PortState.ACTIVE) return Finding.pass(STATE, p.ref(), observed, expected);
        if (s.code() == PortState.INIT && p.isInfiniband()) {
            return Finding.of(STATE, Severity.FAIL, p.ref(), observed + " (no subnet manager has configured the port)",
                    expected, OPENSM);
        }
        if (unusedBySpec) return Finding.of(STATE, Severity.INFO, p.ref(), observed, "not used by the spec", "");
        Severity sev = bound || s.code() != PortState.DOWN ? Severity.FAIL : Severity.WARN;
        return Finding.of(STATE, sev, p.ref(), observed, expected,
                Fix.lines(Fix.note("check the cable and the peer, and that you test the cabled port (ib_write_bw --ib-port="
                                + p.port() + ")"),
                        "ibv_devinfo -d " + ShellWord.of(p.device()) + " | grep -E 'port:|state'"));
    }

    private static Finding phys(RdmaPort p, boolean bound, boolean unusedBySpec) {
        String expected = "5: LinkUp";
        if (!(p.physState() instanceof Reading.Present<PortState>(PortState s))) {
            return Finding.unknown(PHYS, p.ref(), p.physState(), expected);
        }
        String observed = s.code() + ": " + s.name();
        if (s.code() == PortState.PHYS_LINK_UP || s.name().equalsIgnoreCase("LinkUp")) return Finding.pass(PHYS, p.ref(), observed, expected);
        if (unusedBySpec) return Finding.of(PHYS, Severity.INFO, p.ref(), observed, "not used by the spec", "");
        String name = s.name().toLowerCase(java.util.Locale.ROOT);
        String fix;
        if (name.contains("polling")) {
            fix = Fix.lines(Fix.note("no cable or no peer: seat the QSFP cable/DAC on both ends and enable the peer port"),
                    "cat " + ShellWord.of(portDir(p) + "phys_state"));
        } else if (name.contains("disabled")) {
            fix = p.isInfiniband()
                    ? "ibportstate -C " + ShellWord.of(p.device()) + " -P " + p.port() + " " + p.lid().orElse(0) + " "
                            + p.port() + " enable"
                    : "for n in " + ShellWord.of(portDir(p) + "gid_attrs/ndevs/")
                            + "*; do ip link set dev \"$(cat \"$n\")\" up; done 2>/dev/null";
        } else {
            fix = Fix.lines(Fix.note("the link is training or recovering: look again in a few seconds; if it stays, "
                    + "replace the cable"), "cat " + ShellWord.of(portDir(p) + "phys_state"));
        }
        return Finding.of(PHYS, bound ? Severity.FAIL : Severity.WARN, p.ref(), observed, expected, fix);
    }

    /** The port's sysfs directory as a fix names it, with its trailing slash. */
    private static String portDir(RdmaPort p) {
        return "/sys/class/infiniband/" + p.device() + "/ports/" + p.port() + "/";
    }

    private static java.util.Optional<Finding> sm(RdmaPort p) {
        // sm_lid is 0 on a port with no link at all; only a link that is up says the subnet has no SM.
        boolean linkUp = p.physState().optional().map(s -> s.code() == PortState.PHYS_LINK_UP).orElse(false);
        if (!linkUp) return java.util.Optional.empty();
        String expected = "sm_lid != 0 (a subnet manager)";
        // a link layer that could not be read may be InfiniBand: the port is not judged, but it does not vanish either
        if (!(p.linkLayer() instanceof Reading.Present<String>)) {
            return java.util.Optional.of(Finding.unknown(SM, p.ref(), p.linkLayer(), "an InfiniBand port with " + expected));
        }
        if (!p.isInfiniband()) return java.util.Optional.empty();
        if (!(p.smLid() instanceof Reading.Present<Integer>(Integer lid))) {
            return java.util.Optional.of(Finding.unknown(SM, p.ref(), p.smLid(), expected));
        }
        if (lid != 0) return java.util.Optional.of(Finding.pass(SM, p.ref(), "sm_lid " + lid, expected));
        return java.util.Optional.of(Finding.of(SM, Severity.FAIL, p.ref(), "sm_lid 0", expected, OPENSM));
    }
}
