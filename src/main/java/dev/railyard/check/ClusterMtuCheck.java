package dev.railyard.check;

import dev.railyard.check.rules.ClusterMtuRule;
import dev.railyard.check.rules.Verdict;
import dev.railyard.model.CheckId;
import dev.railyard.model.ClusterSpec;
import dev.railyard.model.Finding;
import dev.railyard.model.NodeFacts;
import dev.railyard.model.Reading;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * cluster.mtu across the nodes' facts: each bound end's MTU against the spec's or the most common one, judged by
 * {@link ClusterMtuRule}.
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
                    out.add(ClusterMtuRule.notRead(in.whyMissing(node), net.mtu()).on(subject));
                } else if (dev.isEmpty()) {
                    out.add(ClusterMtuRule.noNetdev(net.name(), node, netdev, net.mtu()).on(subject));
                } else if (dev.get().mtu() instanceof Reading.Present<Integer>(Integer mtu)) {
                    seen.put(node, mtu);
                } else {
                    out.add(ClusterMtuRule.notRead(dev.get().mtu().describe(), net.mtu()).on(subject));
                }
            }
            Optional<Integer> want = net.mtu().or(() -> majority(seen));
            int bad = 0;
            for (Map.Entry<String, Integer> e : seen.entrySet()) {
                if (want.isEmpty()) continue;
                String netdev = net.bind().get(e.getKey()).netdev();
                Verdict v = ClusterMtuRule.end(e.getKey(), netdev, e.getValue(), want.get(), net.mtu());
                if (v.passed()) continue;
                bad++;
                out.add(v.on(net.name() + " " + e.getKey() + " " + netdev));
            }
            if (bad == 0 && seen.size() == net.bind().size() && want.isPresent()) {
                out.add(ClusterMtuRule.agree(seen.size(), want.get(), net.mtu()).on(net.name()));
            }
        }
        return out;
    }

    private static Optional<Integer> majority(Map<String, Integer> seen) {
        Map<Integer, Integer> counts = new LinkedHashMap<>();
        seen.values().forEach(m -> counts.merge(m, 1, Integer::sum));
        return counts.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey);
    }
}
