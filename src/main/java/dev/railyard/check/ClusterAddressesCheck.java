package dev.railyard.check;

import dev.railyard.model.ClusterSpec;
import dev.railyard.model.Finding;
import dev.railyard.model.NodeFacts;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;
import dev.railyard.spec.Ipv4Cidr;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * cluster.addresses: no IPv4 address on two nodes (ARP then answers from either, and pair tests hit the wrong host),
 * and every bound netdev carries an address inside its network's subnet (else traffic for the rail leaves through
 * the default route).
 */
public final class ClusterAddressesCheck implements ClusterCheck {

    static final String ID = "cluster.addresses";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public List<Finding> run(ClusterInput in) {
        List<Finding> out = new ArrayList<>(duplicates(in));
        for (ClusterSpec.Network net : in.spec().networks()) {
            Optional<Ipv4Cidr> subnet = net.subnet().flatMap(Ipv4Cidr::parse);
            if (subnet.isEmpty()) continue;
            int inside = 0;
            for (Map.Entry<String, ClusterSpec.Binding> b : net.bind().entrySet()) {
                String node = b.getKey();
                String netdev = b.getValue().netdev();
                String subject = net.name() + " " + node + " " + netdev;
                String expected = "an address in " + subnet.get() + b.getValue().address().map(a -> " (" + a + ")").orElse("");
                Optional<String> specAddr = b.getValue().address();
                if (specAddr.isPresent() && !Ipv4Cidr.parseAddress(bare(specAddr.get())).map(subnet.get()::contains).orElse(false)) {
                    out.add(Finding.of(ID, Severity.FAIL, subject, "spec address " + specAddr.get() + " outside " + subnet.get(),
                            expected, "fix networks." + net.name() + ".bind." + node + ".address in the spec"));
                    continue;
                }
                if (in.factsOf(node).isEmpty()) {
                    out.add(Finding.of(ID, Severity.UNKNOWN, subject, in.whyMissing(node), expected, ""));
                    continue;
                }
                Optional<NodeFacts.Netdev> dev = in.netdev(node, netdev);
                if (dev.isEmpty()) continue; // cluster.mtu and rdma.netdev.address already say the netdev is missing
                if (!(dev.get().addresses() instanceof Reading.Present<List<String>>(List<String> addrs))) {
                    out.add(Finding.unknown(ID, subject, dev.get().addresses(), expected));
                    continue;
                }
                List<String> v4 = addrs.stream().filter(a -> Ipv4Cidr.parseAddress(bare(a)).isPresent()).toList();
                boolean ok = v4.stream().anyMatch(a -> subnet.get().contains(Ipv4Cidr.parseAddress(bare(a)).orElseThrow()));
                if (ok) {
                    inside++;
                } else {
                    String want = specAddr.map(a -> bare(a) + "/" + subnet.get().prefix()).orElse("ADDR/" + subnet.get().prefix());
                    out.add(Finding.of(ID, Severity.FAIL, subject,
                            v4.isEmpty() ? "no IPv4 address" : String.join(", ", v4) + " (none in " + subnet.get() + ")",
                            expected, "ip addr add " + want + " dev " + netdev + " on " + node));
                }
            }
            if (inside == net.bind().size() && inside > 0) {
                out.add(Finding.pass(ID, net.name(), "all " + inside + " netdevs have an address in " + subnet.get(),
                        "an address in " + subnet.get() + " on every bound netdev"));
            }
        }
        return out;
    }

    /** The same IPv4 address on two nodes, over every netdev the nodes reported (loopback and link-local aside). */
    private static List<Finding> duplicates(ClusterInput in) {
        Map<String, TreeSet<String>> holders = new LinkedHashMap<>();
        for (NodeFacts f : in.facts().values()) {
            for (NodeFacts.Netdev d : f.netdevs()) {
                for (String a : d.addresses().orElse(List.of())) {
                    String ip = bare(a);
                    Optional<Integer> bits = Ipv4Cidr.parseAddress(ip);
                    if (bits.isEmpty() || (bits.get() >>> 24) == 127 || (bits.get() >>> 16) == 0xA9FE) continue;
                    holders.computeIfAbsent(ip, k -> new TreeSet<>()).add(f.node() + " " + d.name());
                }
            }
        }
        List<Finding> out = new ArrayList<>();
        holders.forEach((ip, at) -> {
            long nodes = at.stream().map(s -> s.substring(0, s.indexOf(' '))).distinct().count();
            if (nodes > 1) {
                out.add(Finding.of(ID, Severity.FAIL, ip, "on " + String.join(", ", at), "on one node only",
                        "give each node its own address (railyard render writes the netplan/NetworkManager files per node)"));
            }
        });
        if (out.isEmpty() && in.facts().size() > 1) {
            out.add(Finding.pass(ID, "all nodes", "no IPv4 address on two nodes", "each address on one node only"));
        }
        return out;
    }

    static String bare(String address) {
        int slash = address.indexOf('/');
        return slash < 0 ? address : address.substring(0, slash);
    }
}
