package dev.railyard.check;

import dev.railyard.model.ClusterSpec;
import dev.railyard.model.Finding;
import dev.railyard.model.NodeFacts;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;
import dev.railyard.model.Ipv4Cidr;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

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
                            expected, Fix.note("in the spec, give networks." + net.name() + ".bind." + node
                                    + ".address an address in " + subnet.get() + " (it is " + specAddr.get() + ")")));
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
                    out.add(Finding.of(ID, Severity.FAIL, subject,
                            v4.isEmpty() ? "no IPv4 address" : String.join(", ", v4) + " (none in " + subnet.get() + ")",
                            expected, addressFix(net.name(), node, netdev, subnet.get(), specAddr)));
                }
            }
            if (inside == net.bind().size() && inside > 0) {
                out.add(Finding.pass(ID, net.name(), "all " + inside + " netdevs have an address in " + subnet.get(),
                        "an address in " + subnet.get() + " on every bound netdev"));
            }
        }
        return out;
    }

    /** On the node: the spec's address now and in netplan; without one in the spec, what to add there. */
    private static String addressFix(String net, String node, String netdev, Ipv4Cidr subnet, Optional<String> specAddr) {
        if (specAddr.isEmpty()) {
            return Fix.lines(Fix.note("the spec gives " + node + " no address on " + net + ": add networks." + net + ".bind."
                    + node + ".address (one in " + subnet + "), then railyard apply on " + node + "; its addresses now:"),
                    "ip -br addr show dev " + ShellWord.of(netdev));
        }
        String cidr = bare(specAddr.get()) + "/" + subnet.prefix();
        return Fix.lines(Fix.note("on " + node + ":"), "ip addr add " + cidr + " dev " + ShellWord.of(netdev),
                Fix.netplanDropIn(netdev, "address", "addresses: [" + cidr + "]"));
    }

    /** The same IPv4 address on two nodes, over every netdev the nodes reported (loopback and link-local aside). */
    private static List<Finding> duplicates(ClusterInput in) {
        Map<String, TreeMap<Holder, String>> holders = new LinkedHashMap<>();
        for (NodeFacts f : in.facts().values()) {
            for (NodeFacts.Netdev d : f.netdevs()) {
                for (String a : d.addresses().orElse(List.of())) {
                    String ip = bare(a);
                    Optional<Integer> bits = Ipv4Cidr.parseAddress(ip);
                    if (bits.isEmpty() || (bits.get() >>> 24) == 127 || (bits.get() >>> 16) == 0xA9FE) continue;
                    holders.computeIfAbsent(ip, k -> new TreeMap<>()).put(new Holder(f.node(), d.name()), a);
                }
            }
        }
        List<Finding> out = new ArrayList<>();
        holders.forEach((ip, at) -> {
            long nodes = at.keySet().stream().map(Holder::node).distinct().count();
            if (nodes > 1) {
                out.add(Finding.of(ID, Severity.FAIL, ip, "on " + String.join(", ", at.keySet().stream()
                        .map(Holder::toString).toList()), "on one node only", duplicateFix(in.spec(), ip, at)));
            }
        });
        if (out.isEmpty() && in.facts().size() > 1) {
            out.add(Finding.pass(ID, "all nodes", "no IPv4 address on two nodes", "each address on one node only"));
        }
        return out;
    }

    /** A netdev of a node that holds an address; "node netdev" in what the finding observed. */
    private record Holder(String node, String netdev) implements Comparable<Holder> {
        @Override
        public int compareTo(Holder o) {
            return toString().compareTo(o.toString());
        }

        @Override
        public String toString() {
            return node + " " + netdev;
        }
    }

    /**
     * Where the spec binds the address to one of its holders, the others give it up (and take their own, when the
     * spec gives them one on that netdev); else the holders are shown and the choice is the reader's.
     */
    private static String duplicateFix(ClusterSpec spec, String ip, Map<Holder, String> at) {
        Optional<String> owner = spec.networks().stream().flatMap(n -> n.bind().entrySet().stream())
                .filter(b -> b.getValue().address().map(a -> bare(a).equals(ip)).orElse(false))
                .map(Map.Entry::getKey).filter(node -> at.keySet().stream().anyMatch(h -> h.node().equals(node))).findFirst();
        String atBoot = "grep -rlF " + ip + " /etc/netplan /etc/NetworkManager/system-connections 2>/dev/null";
        if (owner.isEmpty()) {
            return Fix.lines(Fix.note(ip + " is on " + nodesOf(at) + ", and the spec binds it to none of them: keep it on "
                            + "one, and on the others remove it (ip addr del) and give each its own address; on each, the "
                            + "addresses and the files that set " + ip + " at boot:"),
                    "ip -br addr", atBoot);
        }
        List<String> lines = new ArrayList<>(List.of(Fix.note(ip + " is " + owner.get() + "'s in the spec:")));
        at.forEach((h, cidr) -> {
            if (h.node().equals(owner.get())) return;
            Optional<String> own = spec.networks().stream().map(n -> n.bind().get(h.node()))
                    .filter(b -> b != null && b.netdev().equals(h.netdev())).flatMap(b -> b.address().stream())
                    .findFirst();
            String prefix = cidr.contains("/") ? cidr.substring(cidr.indexOf('/')) : "";
            lines.add(Fix.note("on " + h.node() + ":"));
            lines.add("ip addr del " + cidr + " dev " + ShellWord.of(h.netdev()));
            own.ifPresent(a -> lines.add("ip addr add " + bare(a) + prefix + " dev " + ShellWord.of(h.netdev())));
            lines.add(atBoot);
            lines.add(Fix.note("in the file grep names, " + own.map(a -> "put " + bare(a) + " in place of " + ip)
                    .orElse("remove " + ip) + " (or railyard apply on " + h.node() + " writes its network files)"));
        });
        return Fix.lines(lines.toArray(String[]::new));
    }

    private static String nodesOf(Map<Holder, String> at) {
        return String.join(" and ", at.keySet().stream().map(Holder::toString).toList());
    }

    static String bare(String address) {
        int slash = address.indexOf('/');
        return slash < 0 ? address : address.substring(0, slash);
    }
}
