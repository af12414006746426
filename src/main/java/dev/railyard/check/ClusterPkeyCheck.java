package dev.railyard.check;

import dev.railyard.model.CheckId;
import dev.railyard.model.ClusterSpec;
import dev.railyard.model.Finding;
import dev.railyard.model.NodeFacts;
import dev.railyard.model.RdmaPort;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * cluster.pkey: every InfiniBand port a network binds must hold the same P_Keys. Two ports in different partitions
 * cannot exchange a single packet (RDMA connects time out), and two limited members of one partition (0x7fff) cannot
 * talk to each other either. The subnet manager assigns P_Keys, so the odd port is named with its GUID's partition
 * entry to fix there.
 */
public final class ClusterPkeyCheck implements ClusterCheck {

    static final String ID = CheckId.CLUSTER_PKEY.id();
    /** The top bit of a P_Key: set for a full member of the partition, clear for a limited one. */
    private static final int FULL_MEMBER = 0x8000;

    @Override
    public String id() {
        return ID;
    }

    @Override
    public List<Finding> run(ClusterInput in) {
        List<Finding> out = new ArrayList<>();
        for (ClusterSpec.Network net : in.spec().networks()) {
            if (net.linkLayer().equals(Optional.of(ClusterSpec.LinkLayer.ETHERNET))) continue;
            Map<String, TreeSet<Integer>> seen = new LinkedHashMap<>();
            List<Finding> unread = new ArrayList<>();
            for (Map.Entry<String, ClusterSpec.Binding> b : net.bind().entrySet()) {
                String node = b.getKey();
                if (b.getValue().rdma().isEmpty()) continue;
                var ref = b.getValue().rdma().get();
                String subject = net.name() + " " + node + " " + ref;
                Optional<NodeFacts> facts = in.factsOf(node);
                if (facts.isEmpty()) {
                    unread.add(Finding.of(ID, Severity.UNKNOWN, subject, in.whyMissing(node), expected(), ""));
                    continue;
                }
                Optional<NodeFacts.Port> port = facts.get().rdmaPorts().stream()
                        .filter(p -> p.device().equals(ref.device()) && p.port() == ref.port()).findFirst();
                if (port.isEmpty()) {
                    if (!facts.get().rdmaPorts().isEmpty()) {
                        unread.add(Finding.of(ID, Severity.UNKNOWN, subject, "no RDMA port " + ref + " on " + node,
                                expected(), ""));
                    } else if (net.linkLayer().isPresent()) {
                        unread.add(Finding.of(ID, Severity.UNKNOWN, subject,
                                "this node's inventory does not report its RDMA ports' P_Keys", expected(), ""));
                    }
                    continue;
                }
                boolean infiniband = port.get().linkLayer().optional().map("InfiniBand"::equalsIgnoreCase).orElse(false);
                // a RoCE port's table holds only the default key, which says nothing about a partition
                if (!infiniband && port.get().linkLayer().isPresent()) continue;
                if (!infiniband && net.linkLayer().isEmpty()) continue;
                switch (port.get().pkeys()) {
                    case Reading.Present<List<Integer>>(List<Integer> keys) -> seen.put(node, new TreeSet<>(keys));
                    case Reading<List<Integer>> r -> unread.add(Finding.unknown(ID, subject, r, expected()));
                }
            }
            out.addAll(judge(net, seen));
            out.addAll(unread);
        }
        return out;
    }

    private static List<Finding> judge(ClusterSpec.Network net, Map<String, TreeSet<Integer>> seen) {
        if (seen.isEmpty()) return List.of();
        Map<TreeSet<Integer>, Long> counts = seen.values().stream()
                .collect(Collectors.groupingBy(k -> k, LinkedHashMap::new, Collectors.counting()));
        TreeSet<Integer> common = counts.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
        List<Finding> out = new ArrayList<>();
        for (Map.Entry<String, TreeSet<Integer>> e : seen.entrySet()) {
            String node = e.getKey();
            var ref = net.bind().get(node).rdma().orElseThrow();
            String subject = net.name() + " " + node + " " + ref;
            TreeSet<Integer> keys = e.getValue();
            if (keys.isEmpty()) {
                TreeSet<Integer> want = common.isEmpty() ? new TreeSet<>(List.of(0xffff)) : common;
                out.add(Finding.of(ID, Severity.FAIL, subject, "no P_Key (every entry 0x0000)",
                        common.isEmpty() ? "at least the default partition 0xffff" : text(common) + " as the other ports",
                        fix(node, ref.device(), ref.port(), want)));
            } else if (!keys.equals(common)) {
                boolean samePartitions = partitions(keys).equals(partitions(common));
                out.add(Finding.of(ID, samePartitions ? Severity.WARN : Severity.FAIL, subject,
                        "P_Keys " + text(keys) + (samePartitions ? " (the same partitions, another membership)" : ""),
                        text(common) + " (as on " + counts.get(common) + " of " + seen.size() + " ports)",
                        fix(node, ref.device(), ref.port(), common)));
            } else if (keys.stream().noneMatch(k -> (k & FULL_MEMBER) != 0) && seen.size() > 1) {
                out.add(Finding.of(ID, Severity.FAIL, subject, "P_Keys " + text(keys) + ": a limited member only",
                        "a full member (0x8000 set) of the partition", fix(node, ref.device(), ref.port(),
                                keys.stream().map(k -> k | FULL_MEMBER).collect(Collectors.toCollection(TreeSet::new)))));
            }
        }
        if (out.isEmpty() && seen.size() == net.bind().values().stream().filter(b -> b.rdma().isPresent()).count()) {
            out.add(Finding.pass(ID, net.name(), "P_Keys " + text(common) + " on all " + seen.size() + " ports", expected()));
        }
        return out;
    }

    private static TreeSet<Integer> partitions(TreeSet<Integer> keys) {
        return keys.stream().map(k -> k & ~FULL_MEMBER).collect(Collectors.toCollection(TreeSet::new));
    }

    private static String text(TreeSet<Integer> keys) {
        return keys.stream().map(RdmaPort::pkeyText).collect(Collectors.joining(", "));
    }

    private static String expected() {
        return "the same P_Keys on every InfiniBand port of the network";
    }

    private static String fix(String node, String device, int port, TreeSet<Integer> want) {
        return Fix.lines(
                Fix.note("the subnet manager assigns P_Keys: give the port GUID of " + device + ":" + port + " on " + node
                        + " the partitions " + text(want) + " as the other ports have (opensm: its line in "
                        + "/etc/opensm/partitions.conf, then systemctl restart opensm; UFM: the PKey's GUID list)."
                        + " On " + node + ", the port GUID and its P_Key table now:"),
                "cat " + ShellWord.of("/sys/class/infiniband/" + device + "/ports/" + port + "/gids/0"),
                "grep -v 0x0000 " + ShellWord.of("/sys/class/infiniband/" + device + "/ports/" + port + "/pkeys") + "/*");
    }
}
