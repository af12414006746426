package dev.railyard.check.rules;

import dev.railyard.model.CheckId;
import dev.railyard.model.RdmaPort;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;

import java.util.Optional;

/**
 * rdma.ib.sm: an InfiniBand port whose link is up but whose sm_lid is 0 has no subnet manager. A port with no link
 * has sm_lid 0 too, so only a LinkUp port is judged; a link layer that could not be read may be InfiniBand, so that
 * port is UNKNOWN rather than skipped.
 */
public final class SubnetManagerRule implements Rule {

    public static final CheckId ID = CheckId.RDMA_IB_SM;
    public static final String EXPECTED = "sm_lid != 0 (a subnet manager)";

    @Override
    public CheckId id() {
        return ID;
    }

    @Override
    public String reads() {
        return "RdmaPort sm_lid, phys_state and link layer";
    }

    @Override
    public String thresholds() {
        return "sm_lid != 0";
    }

    @Override
    public String severities() {
        return "InfiniBand, LinkUp, sm_lid 0: FAIL; link layer or sm_lid unreadable: UNKNOWN; not LinkUp or "
                + "Ethernet: not judged";
    }

    @Override
    public String fix() {
        return "start exactly one subnet manager (opensm) on the fabric";
    }

    /** Empty where the port is not an InfiniBand link that is up. */
    public static Optional<Verdict> judge(RdmaPort p) {
        if (!RdmaPortPhysRule.linkUp(p)) return Optional.empty();
        if (!(p.linkLayer() instanceof Reading.Present<String>)) {
            return Optional.of(new Verdict(ID, Severity.UNKNOWN, p.linkLayer().describe(),
                    "an InfiniBand port with " + EXPECTED, ""));
        }
        if (!p.isInfiniband()) return Optional.empty();
        if (!(p.smLid() instanceof Reading.Present<Integer>(Integer lid))) {
            return Optional.of(new Verdict(ID, Severity.UNKNOWN, p.smLid().describe(), EXPECTED, ""));
        }
        if (lid != 0) return Optional.of(new Verdict(ID, Severity.PASS, "sm_lid " + lid, EXPECTED, ""));
        return Optional.of(new Verdict(ID, Severity.FAIL, "sm_lid 0", EXPECTED, RdmaPortStateRule.noSubnetManagerFix(p)));
    }
}
