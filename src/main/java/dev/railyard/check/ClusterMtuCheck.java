package dev.railyard.check;

import dev.railyard.model.CheckId;
import dev.railyard.model.ClusterSpec;
import dev.railyard.model.Finding;
import dev.railyard.model.NodeFacts;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * cluster.mtu: both ends of every link on a network must agree, and with the spec's MTU when it gives one. A jumbo
 * frame sent to a 1500-byte peer is dropped silently: RDMA connects, then stalls.
 */
public final class ClusterMtuCheck implements ClusterCheck {

    static final String ID = CheckId.CLUSTER_MTU.id();

    @Override
    public String id() {
        return ID;
    }

    @Override
    public List<Finding> run(ClusterInput in) {
        List<Finding> out = new ArrayList<>();
        for (ClusterSpec.Network net : in.spec().networks()) {
            if (net.bind().size() < 2 && net.mtu().isEmpty()) continue;
            Map<String, Integer> seen = new LinkedHashMap<>();
            for (Map.Entry<String, ClusterSpec.Binding> b : net.bind().entrySet()) {
                String node = b.getKey();
                String netdev = b.getValue().netdev();
                String subject = net.name() + " " + node + " " + netdev;
                Optional<NodeFacts.Netdev> dev = in.netdev(node, netdev);
                if (in.factsOf(node).isEmpty()) {
                    out.add(Finding.of(ID, Severity.UNKNOWN, subject, in.whyMissing(node), expected(net), ""));
                } else if (dev.isEmpty()) {
                    out.add(Finding.of(ID, Severity.UNKNOWN, subject, "no netdev " + netdev + " on " + node, expected(net),
                            Fix.lines(Fix.note("the spec binds " + net.name() + " on " + node + " to " + netdev + ", which "
                                            + node + " does not have: name one of its netdevs in networks." + net.name()
                                            + ".bind." + node + ".netdev; on " + node + ", its netdevs:"),
                                    "ip -br link")));
                } else if (dev.get().mtu() instanceof Reading.Present<Integer>(Integer mtu)) {
                    seen.put(node, mtu);
                } else {
                    out.add(Finding.unknown(ID, subject, dev.get().mtu(), expected(net)));
                }
            }
            Optional<Integer> want = net.mtu().or(() -> majority(seen));
            int bad = 0;
            for (Map.Entry<String, Integer> e : seen.entrySet()) {
                if (want.isPresent() && !e.getValue().equals(want.get())) {
                    bad++;
                    String netdev = net.bind().get(e.getKey()).netdev();
                    out.add(Finding.of(ID, Severity.FAIL, net.name() + " " + e.getKey() + " " + netdev,
                            "MTU " + e.getValue(), expected(net) + (net.mtu().isEmpty() ? " (as most nodes have)" : ""),
                            Fix.lines(Fix.note("on " + e.getKey() + ":"),
                                    "ip link set dev " + ShellWord.of(netdev) + " mtu " + want.get(),
                                    Fix.netplanDropIn(netdev, "mtu", "mtu: " + want.get()))));
                }
            }
            if (bad == 0 && seen.size() == net.bind().size() && want.isPresent()) {
                out.add(Finding.pass(ID, net.name(), "all " + seen.size() + " ends at MTU " + want.get(), expected(net)));
            }
        }
        return out;
    }

    private static String expected(ClusterSpec.Network net) {
        return net.mtu().map(m -> "MTU " + m + " on every end").orElse("the same MTU on every end");
    }

    private static Optional<Integer> majority(Map<String, Integer> seen) {
        Map<Integer, Integer> counts = new LinkedHashMap<>();
        seen.values().forEach(m -> counts.merge(m, 1, Integer::sum));
        return counts.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey);
    }
}
