package dev.railyard.check.rules;

import dev.railyard.check.Fix;
import dev.railyard.check.ShellWord;
import dev.railyard.model.CheckId;
import dev.railyard.model.RdmaPort;
import dev.railyard.model.RdmaPort.PortState;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;

import java.util.Locale;

/**
 * rdma.port.phys: the physical link is not LinkUp. Polling means no cable or no peer; Disabled was turned off (by
 * ibportstate, or a netdev that is down). FAIL on a port the spec binds, WARN otherwise, INFO when the spec does
 * not use the port.
 */
public final class RdmaPortPhysRule implements Rule {

    public static final CheckId ID = CheckId.RDMA_PORT_PHYS;
    public static final String EXPECTED = "5: LinkUp";

    @Override
    public CheckId id() {
        return ID;
    }

    @Override
    public String reads() {
        return "RdmaPort phys_state and link layer (sysfs, or a paste); whether the spec binds the port";
    }

    @Override
    public String thresholds() {
        return "LinkUp (5)";
    }

    @Override
    public String severities() {
        return "not LinkUp: FAIL on a bound port, else WARN; not used by the spec: INFO; unreadable: UNKNOWN";
    }

    @Override
    public String fix() {
        return "Polling: seat the cable on both ends and enable the peer port; Disabled: enable the port "
                + "(ibportstate, or ip link set up); training: look again, then replace the cable";
    }

    public static boolean linkUp(RdmaPort p) {
        return p.physState() instanceof Reading.Present<PortState>(PortState s)
                && (s.code() == PortState.PHYS_LINK_UP || s.name().equalsIgnoreCase("LinkUp"));
    }

    public static Verdict judge(RdmaPort p, RdmaPortStateRule.Use use) {
        if (!(p.physState() instanceof Reading.Present<PortState>(PortState s))) {
            return new Verdict(ID, Severity.UNKNOWN, p.physState().describe(), EXPECTED, "");
        }
        String observed = s.code() + ": " + s.name();
        if (linkUp(p)) return new Verdict(ID, Severity.PASS, observed, EXPECTED, "");
        if (use == RdmaPortStateRule.Use.UNUSED_BY_SPEC) {
            return new Verdict(ID, Severity.INFO, observed, "not used by the spec", "");
        }
        String name = s.name().toLowerCase(Locale.ROOT);
        String portDir = "/sys/class/infiniband/" + p.device() + "/ports/" + p.port() + "/";
        String fix;
        if (name.contains("polling")) {
            fix = Fix.lines(Fix.note("no cable or no peer: seat the QSFP cable/DAC on both ends and enable the peer port"),
                    "cat " + ShellWord.of(portDir + "phys_state"));
        } else if (name.contains("disabled")) {
            fix = p.isInfiniband()
                    ? "ibportstate -C " + ShellWord.of(p.device()) + " -P " + p.port() + " " + p.lid().orElse(0) + " "
                            + p.port() + " enable"
                    : "for n in " + ShellWord.of(portDir + "gid_attrs/ndevs/")
                            + "*; do ip link set dev \"$(cat \"$n\")\" up; done 2>/dev/null";
        } else {
            fix = Fix.lines(Fix.note("the link is training or recovering: look again in a few seconds; if it stays, "
                    + "replace the cable"), "cat " + ShellWord.of(portDir + "phys_state"));
        }
        return new Verdict(ID, use == RdmaPortStateRule.Use.BOUND ? Severity.FAIL : Severity.WARN, observed, EXPECTED,
                fix);
    }
}
