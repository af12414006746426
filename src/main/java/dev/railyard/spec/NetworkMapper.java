package dev.railyard.spec;

import dev.railyard.model.Ipv4Cidr;
import dev.railyard.model.ClusterSpec.Binding;
import dev.railyard.model.ClusterSpec.IpoibMode;
import dev.railyard.model.ClusterSpec.LinkLayer;
import dev.railyard.model.ClusterSpec.Network;
import dev.railyard.model.ClusterSpec.Role;
import dev.railyard.model.NetInterface.RdmaPortRef;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Maps {@code networks}: roles, link settings, subnet, and each node's binding (netdev, rdma port, address). */
final class NetworkMapper {

    static final List<String> NETWORK_KEYS =
            List.of("name", "role", "link_layer", "rate_gbps", "mtu", "subnet", "ipoib_mode", "bind",
                    "subnet_manager");
    static final List<String> BINDING_KEYS = List.of("netdev", "rdma", "address");
    /** The IPv4 minimum and the IPoIB connected-mode maximum. */
    static final int MTU_MIN = 68;
    static final int MTU_MAX = 65520;

    private static final Pattern RDMA_PORT = Pattern.compile("([A-Za-z0-9][A-Za-z0-9_.-]*):([0-9]{1,3})");
    /** Linux IFNAMSIZ is 16 with the NUL: at most 15 characters, no '/' and no whitespace. */
    private static final Pattern NETDEV = Pattern.compile("[^/\\s]{1,15}");

    /**
     * @param nodesComplete whether every node read without a mistake: when not, a binding to a name not among
     *                      {@code nodeNames} is that mistake again, not a second one
     */
    List<Network> map(SpecNode list, Set<String> nodeNames, boolean nodesComplete) {
        List<Network> networks = new ArrayList<>();
        Map<String, Integer> lines = new HashMap<>();
        SpecProblems problems = list.problems();
        for (SpecNode item : list.asNamedList("\"- name: NAME\" with \"role: ...\" under it")) {
            problems.attempt(() -> {
                SpecNode.SpecMap m = item.asMap(NETWORK_KEYS);
                SpecNode nameNode = m.require("name");
                String name = SpecMapper.name(nameNode);
                if (lines.containsKey(name)) {
                    throw nameNode.error("duplicate network name \"" + name + "\" (first at line " + lines.get(name) + ")");
                }
                lines.put(name, nameNode.line());
                network(name, m, nodeNames, nodesComplete, problems).ifPresent(networks::add);
                return null;
            });
        }
        return networks;
    }

    /** The network, or empty when a field has a mistake (each one noted in {@code problems}). */
    private Optional<Network> network(String name, SpecNode.SpecMap m, Set<String> nodeNames, boolean nodesComplete,
                                      SpecProblems problems) {
        Optional<Role> role = problems.attempt(() -> m.require("role").asEnum(Role.class));
        Optional<Optional<LinkLayer>> linkLayerRead = problems.attempt(() -> m.get("link_layer")
                .map(n -> n.asEnum(LinkLayer.class)));
        Optional<Optional<Double>> rate = problems.attempt(() -> m.get("rate_gbps").map(SpecMapper::positive));
        Optional<Optional<Integer>> mtu = problems.attempt(() -> m.get("mtu").map(NetworkMapper::mtu));
        Optional<Optional<Ipv4Cidr>> subnetRead = problems.attempt(() -> m.get("subnet").map(NetworkMapper::subnet));
        if (linkLayerRead.isEmpty() || subnetRead.isEmpty()) return Optional.empty();
        Optional<LinkLayer> linkLayer = linkLayerRead.get();
        Optional<Ipv4Cidr> subnet = subnetRead.get();
        Optional<Optional<IpoibMode>> ipoib = problems.attempt(() -> m.get("ipoib_mode").map(n -> {
            IpoibMode mode = n.asEnum(IpoibMode.class);
            if (linkLayer.isPresent() && linkLayer.get() != LinkLayer.INFINIBAND) {
                throw n.error("applies only to link_layer: infiniband (IPoIB)");
            }
            return mode;
        }));
        Optional<Map<String, Binding>> bind = problems.attempt(() -> m.get("bind").map(b -> bind(b, nodeNames, nodesComplete, subnet))
                .orElse(Map.of()));
        Optional<Optional<String>> sm = problems.attempt(() -> m.get("subnet_manager").map(n -> {
            if (linkLayer.orElse(LinkLayer.ETHERNET) != LinkLayer.INFINIBAND) {
                throw n.error("applies only to link_layer: infiniband (OpenSM runs on an InfiniBand port)");
            }
            String node = SpecMapper.name(n);
            if (!nodeNames.contains(node)) {
                if (!nodesComplete) throw new SpecNode.AlreadyReported();
                throw n.error("no node named \"" + node + "\" in nodes");
            }
            return node;
        }));
        if (problems.any()) return Optional.empty();
        return Optional.of(new Network(name, role.orElseThrow(), linkLayer, rate.orElseThrow(), mtu.orElseThrow(),
                subnet.map(Ipv4Cidr::toString), ipoib.orElseThrow(), bind.orElseThrow(), sm.orElseThrow()));
    }

    private static int mtu(SpecNode n) {
        int v = n.asInt();
        if (v < MTU_MIN || v > MTU_MAX) throw n.error(v + " is out of range " + MTU_MIN + ".." + MTU_MAX);
        return v;
    }

    private static Ipv4Cidr subnet(SpecNode n) {
        String text = n.asString();
        Ipv4Cidr cidr = Ipv4Cidr.parse(text)
                .orElseThrow(() -> n.error("\"" + text + "\" is not an IPv4 CIDR such as 10.0.0.0/24"));
        if (Ipv4Cidr.zeroPadded(text.substring(0, text.indexOf('/')))) throw n.error(zeroPadded(text, cidr.toString()));
        if (!cidr.isNetwork()) {
            throw n.error("\"" + text + "\" has host bits set; did you mean " + cidr.network() + "?");
        }
        return cidr;
    }

    private Map<String, Binding> bind(SpecNode node, Set<String> nodeNames, boolean nodesComplete,
                                      Optional<Ipv4Cidr> subnet) {
        Map<String, Binding> bind = new LinkedHashMap<>();
        Map<Integer, String> addressOwners = new HashMap<>();
        for (Map.Entry<String, SpecNode.SpecMap.Entry> entry : node.asOpenMap().entries().entrySet()) {
            String nodeName = entry.getKey();
            SpecNode.SpecMap.Entry e = entry.getValue();
            if (!nodeNames.contains(nodeName)) {
                if (!nodesComplete) throw new SpecNode.AlreadyReported();
                String hint = KeySuggestion.closest(nodeName, nodeNames)
                        .map(s -> "did you mean \"" + s + "\"?")
                        .orElse("nodes are: " + String.join(", ", nodeNames));
                throw e.key().error("no node named \"" + nodeName + "\" in nodes; " + hint);
            }
            SpecNode.SpecMap b = e.value().asMap(BINDING_KEYS);
            String netdev = netdev(b.require("netdev"));
            Optional<RdmaPortRef> rdma = b.get("rdma").map(NetworkMapper::rdma);
            Optional<String> address = b.get("address").map(a -> {
                String text = a.asString();
                int bits = address(a, text, subnet);
                String other = addressOwners.putIfAbsent(bits, nodeName);
                if (other != null) throw a.error(Ipv4Cidr.format(bits) + " is also bound to " + other);
                return text;
            });
            bind.put(nodeName, new Binding(netdev, rdma, address));
        }
        return bind;
    }

    static String netdev(SpecNode n) {
        String v = n.asString();
        if (!NETDEV.matcher(v).matches()) {
            throw n.error("\"" + v + "\" is not a network interface name (1-15 characters, no '/' or spaces)");
        }
        return v;
    }

    private static RdmaPortRef rdma(SpecNode n) {
        String v = n.asString();
        Matcher m = RDMA_PORT.matcher(v);
        int port = m.matches() ? Integer.parseInt(m.group(2)) : 0;
        if (port < 1 || port > 255) {
            throw n.error("\"" + v + "\" is not DEVICE:PORT such as \"mlx4_0:2\" (ports count from 1)");
        }
        return new RdmaPortRef(m.group(1), port);
    }

    static String zeroPadded(String text, String plain) {
        return "\"" + text + "\" has a zero-padded number, which ssh, ping and Java read as octal or refuse (010 is 8); write "
                + plain;
    }

    /** A bare address ("10.0.0.1") or one with its prefix ("10.0.0.1/24"), inside the subnet when there is one. */
    private static int address(SpecNode n, String text, Optional<Ipv4Cidr> subnet) {
        Optional<Integer> bits = text.contains("/")
                ? Ipv4Cidr.parse(text).map(Ipv4Cidr::bits)
                : Ipv4Cidr.parseAddress(text);
        if (bits.isEmpty()) throw n.error("\"" + text + "\" is not an IPv4 address such as 10.0.0.1 or 10.0.0.1/24");
        if (Ipv4Cidr.zeroPadded(text.contains("/") ? text.substring(0, text.indexOf('/')) : text)) {
            throw n.error(zeroPadded(text, Ipv4Cidr.format(bits.get()) + (text.contains("/") ? text.substring(text.indexOf('/')) : "")));
        }
        if (subnet.isPresent()) {
            Ipv4Cidr s = subnet.get();
            if (!s.contains(bits.get())) throw n.error(text + " is outside the network's subnet " + s);
            if (text.contains("/") && Ipv4Cidr.parse(text).get().prefix() != s.prefix()) {
                throw n.error(text + " has a different prefix length than the subnet " + s);
            }
        }
        return bits.get();
    }
}
