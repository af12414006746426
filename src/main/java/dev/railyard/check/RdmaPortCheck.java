package dev.railyard.check;

import dev.railyard.model.CheckId;
import dev.railyard.model.Finding;
import dev.railyard.model.RdmaPort;
import dev.railyard.model.RdmaPort.PortState;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;

import java.util.ArrayList;
import java.util.List;

/**
 * rdma.port.state (not ACTIVE; INIT on InfiniBand means no subnet manager), rdma.port.phys (not LinkUp: Polling means
 * no cable or no peer) and rdma.ib.sm (an InfiniBand link that is up but has sm_lid 0). Ports the spec binds must be
 * up (FAIL); without a spec a DOWN port may just be unused (seed 002 cables 1 of 4), so it is a WARN.
 */
public final class RdmaPortCheck implements Check {

    static final String STATE = CheckId.RDMA_PORT_STATE.id();
    static final String PHYS = CheckId.RDMA_PORT_PHYS.id();
    static final String SM = CheckId.RDMA_IB_SM.id();
    static final String OPENSM = "start a subnet manager on one host of the fabric: systemctl enable --now opensm "
            + "(dnf/apt install opensm), or enable the switch's SM";
    static final int ACTIVE = 4;
    static final int INIT = 2;
    static final int LINK_UP = 5;

    @Override
    public String id() {
        return "rdma.port";
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
        return out;
    }

    private static Finding state(RdmaPort p, boolean bound, boolean unusedBySpec) {
        String expected = "4: ACTIVE";
        if (!(p.state() instanceof Reading.Present<PortState>(PortState s))) return Finding.unknown(STATE, p.ref(), p.state(), expected);
        String observed = s.code() + ": " + s.name();
        if (s.code() == ACTIVE) return Finding.pass(STATE, p.ref(), observed, expected);
        if (s.code() == INIT && p.isInfiniband()) {
            return Finding.of(STATE, Severity.FAIL, p.ref(), observed + " (no subnet manager has configured the port)",
                    expected, OPENSM);
        }
        if (unusedBySpec) return Finding.of(STATE, Severity.INFO, p.ref(), observed, "not used by the spec", "");
        Severity sev = bound || s.code() != 1 ? Severity.FAIL : Severity.WARN;
        return Finding.of(STATE, sev, p.ref(), observed, expected,
                "check the cable and the peer, and that you test the cabled port: ibv_devinfo -d " + p.device()
                        + " | grep -E 'port:|state' (ib_write_bw --ib-port=" + p.port() + ")");
    }

    private static Finding phys(RdmaPort p, boolean bound, boolean unusedBySpec) {
        String expected = "5: LinkUp";
        if (!(p.physState() instanceof Reading.Present<PortState>(PortState s))) {
            return Finding.unknown(PHYS, p.ref(), p.physState(), expected);
        }
        String observed = s.code() + ": " + s.name();
        if (s.code() == LINK_UP || s.name().equalsIgnoreCase("LinkUp")) return Finding.pass(PHYS, p.ref(), observed, expected);
        if (unusedBySpec) return Finding.of(PHYS, Severity.INFO, p.ref(), observed, "not used by the spec", "");
        String name = s.name().toLowerCase(java.util.Locale.ROOT);
        String fix;
        if (name.contains("polling")) {
            fix = "no cable or no peer: seat the QSFP cable/DAC on both ends and check the peer port is enabled";
        } else if (name.contains("disabled")) {
            fix = "the port is administratively disabled: ip link set dev <netdev> up (Ethernet) or ibportstate "
                    + p.lid().optional().map(String::valueOf).orElse("<lid>") + " " + p.port() + " enable (InfiniBand)";
        } else {
            fix = "the link is training or recovering: re-check in a few seconds; if it persists, replace the cable";
        }
        return Finding.of(PHYS, bound ? Severity.FAIL : Severity.WARN, p.ref(), observed, expected, fix);
    }

    private static java.util.Optional<Finding> sm(RdmaPort p) {
        if (!p.isInfiniband()) return java.util.Optional.empty();
        // sm_lid is 0 on a port with no link at all; only a link that is up says the subnet has no SM.
        boolean linkUp = p.physState().optional().map(s -> s.code() == LINK_UP).orElse(false);
        if (!linkUp) return java.util.Optional.empty();
        String expected = "sm_lid != 0 (a subnet manager)";
        if (!(p.smLid() instanceof Reading.Present<Integer>(Integer lid))) {
            return java.util.Optional.of(Finding.unknown(SM, p.ref(), p.smLid(), expected));
        }
        if (lid != 0) return java.util.Optional.of(Finding.pass(SM, p.ref(), "sm_lid " + lid, expected));
        return java.util.Optional.of(Finding.of(SM, Severity.FAIL, p.ref(), "sm_lid 0", expected, OPENSM));
    }
}
