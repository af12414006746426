package dev.railyard.check.rules;

import dev.railyard.check.Fix;
import dev.railyard.model.CheckId;
import dev.railyard.model.Severity;

import java.util.Optional;

/**
 * cluster.mtu: both ends of every link on a network must agree, and with the spec's MTU when it gives one (else the
 * MTU most ends have). A jumbo frame sent to a 1500-byte peer is dropped silently: RDMA connects, then stalls. An end
 * not read is UNKNOWN; an end the spec binds to a netdev its node lacks is UNKNOWN with the spec to correct.
 */
public final class ClusterMtuRule implements Rule {

    public static final CheckId ID = CheckId.CLUSTER_MTU;

    @Override
    public CheckId id() {
        return ID;
    }

    @Override
    public String reads() {
        return "the MTU of every bound netdev of a network (each node's facts), the spec network's mtu";
    }

    @Override
    public String thresholds() {
        return "networks[].mtu of the spec, else the MTU most ends have";
    }

    @Override
    public String severities() {
        return "an end at another MTU: FAIL; an end not read or not on its node: UNKNOWN; all ends alike: PASS";
    }

    @Override
    public String fix() {
        return "set the MTU on the odd end now and in a netplan drop-in";
    }

    public static String expected(Optional<Integer> specMtu) {
        return specMtu.map(m -> "MTU " + m + " on every end").orElse("the same MTU on every end");
    }

    /** One end's MTU against {@code want} (the spec's, or the most common when {@code specMtu} is empty). */
    public static Verdict end(String node, String netdev, int mtu, int want, Optional<Integer> specMtu) {
        String expected = expected(specMtu) + (specMtu.isEmpty() ? " (as most nodes have)" : "");
        if (mtu == want) return new Verdict(ID, Severity.PASS, "MTU " + mtu, expected, "");
        return new Verdict(ID, Severity.FAIL, "MTU " + mtu, expected,
                Fix.lines(Fix.note("on " + node + ":"), RdmaNetdevMtuRule.setMtu(netdev, want)));
    }

    /** Every end read and at the MTU wanted. */
    public static Verdict agree(int ends, int want, Optional<Integer> specMtu) {
        return new Verdict(ID, Severity.PASS, "all " + ends + " ends at MTU " + want, expected(specMtu), "");
    }

    /** An end whose node's facts were not read ({@code why}). */
    public static Verdict notRead(String why, Optional<Integer> specMtu) {
        return new Verdict(ID, Severity.UNKNOWN, why, expected(specMtu), "");
    }

    /** An end the spec binds to a netdev its node does not have. */
    public static Verdict noNetdev(String network, String node, String netdev, Optional<Integer> specMtu) {
        return new Verdict(ID, Severity.UNKNOWN, "no netdev " + netdev + " on " + node, expected(specMtu),
                Fix.lines(Fix.note("the spec binds " + network + " on " + node + " to " + netdev + ", which " + node
                        + " does not have: name one of its netdevs in networks." + network + ".bind." + node
                        + ".netdev; on " + node + ", its netdevs:"), "ip -br link"));
    }
}
