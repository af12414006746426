package dev.railyard.spec;

import dev.railyard.model.Ipv4Cidr;
import dev.railyard.model.ClusterSpec;
import dev.railyard.model.ClusterSpec.Binding;
import dev.railyard.model.ClusterSpec.Expect;
import dev.railyard.model.ClusterSpec.Gpus;
import dev.railyard.model.ClusterSpec.IpoibMode;
import dev.railyard.model.ClusterSpec.LinkLayer;
import dev.railyard.model.ClusterSpec.Network;
import dev.railyard.model.ClusterSpec.Role;
import dev.railyard.model.Gpu;
import dev.railyard.model.GpuInventory;
import dev.railyard.model.NetInterface;
import dev.railyard.model.NetInterface.RdmaPortRef;
import dev.railyard.model.NodeInventory;
import dev.railyard.model.RdmaDevice;
import dev.railyard.model.RdmaPort;
import dev.railyard.model.Reading;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * A first spec from one node's inventory: this node, its GPUs, one compute network per ACTIVE RDMA port, and a
 * guess at the management network. {@code todos} are what the inventory could not tell (other nodes above all).
 * {@code notes} are the comments the writer puts on a value that was not read but guessed or left a placeholder,
 * keyed by where it goes: {@code cluster}, {@code node.name}, {@code node.address}, {@code gpus.model},
 * {@code network.NAME} (a line above the network), {@code network.NAME.mtu}.
 */
public record StarterSpec(ClusterSpec spec, List<String> todos, Map<String, String> notes) {

    public static final String DEFAULT_NAME = "my-cluster";

    /** Interfaces that are never the management network: containers, bridges for VMs, tunnels. */
    private static final List<String> VIRTUAL_PREFIXES =
            List.of("lo", "docker", "virbr", "veth", "br-", "cni", "flannel", "cali", "tun", "tap", "vxlan", "kube");

    public StarterSpec {
        todos = List.copyOf(todos);
        notes = Map.copyOf(notes);
    }

    public StarterSpec(ClusterSpec spec, List<String> todos) {
        this(spec, todos, Map.of());
    }

    public static StarterSpec from(NodeInventory inventory, Optional<String> clusterName) {
        List<String> todos = new ArrayList<>();
        Map<String, String> notes = new java.util.HashMap<>();
        String node = nodeName(inventory.hostname());
        if (clusterName.isEmpty()) {
            todos.add("name the cluster: edit 'cluster' (or run init with --name)");
            notes.put("cluster", "TODO: a placeholder, not read from this node");
        }
        if (inventory.hostname().equals(NodeInventory.UNKNOWN_HOSTNAME)) {
            notes.put("node.name", "TODO: a placeholder: this node's hostname could not be read; put its name "
                    + "here and pass it to check with --node");
        } else if (!node.equals(ClusterSpec.shortHostname(inventory.hostname()))) {
            todos.add("this node's hostname '" + inventory.hostname() + "' is not a valid node name: it is written as '"
                    + node + "'; pass --node " + node + " to check, agent and apply");
            notes.put("node.name", "cleaned from the hostname '" + inventory.hostname() + "': pass --node " + node);
        }

        Optional<NetInterface> mgmtIf = inventory.interfaces().stream().filter(StarterSpec::managementCandidate)
                .findFirst();
        Optional<Ipv4Cidr> mgmtAddress = mgmtIf.flatMap(StarterSpec::ipv4);
        if (mgmtAddress.isEmpty()) {
            todos.add("no management interface with an IPv4 address was found: set the node's address and the "
                    + "mgmt subnet");
        }
        Optional<NetInterface> mgmtBound = mgmtIf.filter(i -> mgmtAddress.isPresent());
        if (mgmtBound.isPresent()) {
            notes.put("network.mgmt", "guessed: " + mgmtBound.get().name() + " is the first interface that is up with "
                    + "an IPv4 address and no RDMA port; if another interface is the management network, bind that one");
        } else {
            notes.put("network.mgmt", "TODO: no management interface was found: bind this node's management netdev "
                    + "and address, and set the subnet");
        }
        List<Network> networks = new ArrayList<>();
        networks.add(new Network("mgmt", Role.MANAGEMENT,
                mgmtBound.map(i -> i.ipoibMode().isPresent() ? LinkLayer.INFINIBAND : LinkLayer.ETHERNET),
                Optional.empty(),
                Optional.empty(), mgmtAddress.map(a -> a.network().toString()), Optional.empty(),
                mgmtIf.filter(i -> mgmtAddress.isPresent())
                        .map(i -> Map.of(node, new Binding(i.name(), Optional.empty(),
                                Optional.of(mgmtAddress.get().address()))))
                        .orElse(Map.of())));
        networks.addAll(rails(inventory, node, todos, notes));
        if (networks.size() == 1) {
            todos.add("no ACTIVE RDMA port was found on this node: add the compute network(s) by hand");
        }

        if (mgmtAddress.isEmpty()) {
            notes.put("node.address", "TODO: guessed: no management IPv4 address was found, so this is the node's "
                    + "name; put the address railyard reaches it at");
        }
        ClusterSpec.Node self = new ClusterSpec.Node(node,
                mgmtAddress.map(Ipv4Cidr::address).orElse(node), Optional.empty(), Optional.empty());
        Optional<Gpus> gpus = gpus(inventory.gpu(), todos);
        if (gpus.map(g -> g.model().equals(UNKNOWN_MODEL)).orElse(false)) {
            notes.put("gpus.model", "TODO: a placeholder: the model could not be read without NVML; "
                    + "put it as nvidia-smi -L prints it");
        }
        ClusterSpec spec = new ClusterSpec(clusterName.orElse(DEFAULT_NAME), "railyard init", List.of(self),
                gpus, networks, Expect.defaults());
        return new StarterSpec(spec, todos, notes);
    }

    private static final String UNKNOWN_MODEL = "unknown";

    /**
     * The short hostname, as Slurm names nodes; check, agent and apply find their node by it when the whole
     * hostname (with its domain) is not in the spec ({@link ClusterSpec#nodeForHost}).
     */
    private static String nodeName(String hostname) {
        String shortName = ClusterSpec.shortHostname(hostname);
        String cleaned = shortName.replaceAll("[^A-Za-z0-9._-]", "-").replaceAll("^[^A-Za-z0-9]+", "");
        return cleaned.isEmpty() ? "node1" : cleaned.length() > 63 ? cleaned.substring(0, 63) : cleaned;
    }

    private static boolean managementCandidate(NetInterface i) {
        if (!i.rdmaPorts().isEmpty()) return false;
        if (VIRTUAL_PREFIXES.stream().anyMatch(p -> i.name().startsWith(p))) return false;
        if (i.bondMaster().isPresent()) return false;
        boolean up = i.operState().optional().map(s -> s.equalsIgnoreCase("up")).orElse(false)
                || i.carrier().orElse(false);
        return up && ipv4(i).isPresent();
    }

    /** The first IPv4 address with its prefix; addresses are "10.0.0.1/24" as the net collector reads them. */
    static Optional<Ipv4Cidr> ipv4(NetInterface i) {
        return i.addresses().orElse(List.of()).stream()
                .map(Ipv4Cidr::parse)
                .flatMap(Optional::stream)
                .filter(c -> (c.bits() >>> 24) != 127 && (c.bits() >>> 16) != 0xa9fe)
                .findFirst();
    }

    private static Optional<Gpus> gpus(GpuInventory inventory, List<String> todos) {
        if (inventory.gpus().isEmpty()) {
            String why = switch (inventory.nvml()) {
                case Reading.Absent<GpuInventory.NvmlSystem>(String reason) -> " (" + reason + ")";
                case Reading.Failed<GpuInventory.NvmlSystem>(String path, String cause) -> " (" + path + ": " + cause + ")";
                case Reading.Present<GpuInventory.NvmlSystem> p -> "";
            };
            todos.add("no GPU was found on this node" + why + ": add 'gpus' by hand");
            return Optional.empty();
        }
        Map<String, Long> byModel = inventory.gpus().stream()
                .collect(Collectors.groupingBy(g -> g.name().orElse(UNKNOWN_MODEL), Collectors.counting()));
        String model = byModel.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
        if (byModel.size() > 1) {
            todos.add("this node mixes GPU models " + byModel.keySet().stream().sorted().toList()
                    + ": give the node its own 'gpus' per model");
        }
        if (model.equals(UNKNOWN_MODEL)) todos.add("GPU model unknown without NVML: set gpus.model as nvidia-smi -L prints it");
        Optional<GpuInventory.NvmlSystem> nvml = inventory.nvml().optional();
        return Optional.of(new Gpus(model, byModel.get(model).intValue(),
                nvml.map(GpuInventory.NvmlSystem::driverVersion).filter(s -> !s.isBlank()),
                nvml.map(GpuInventory.NvmlSystem::cudaVersion).filter(s -> !s.isBlank())));
    }

    private static List<Network> rails(NodeInventory inventory, String node, List<String> todos,
                                       Map<String, String> notes) {
        Map<String, NetInterface> byPort = new java.util.HashMap<>();
        for (NetInterface i : inventory.interfaces()) {
            for (RdmaPortRef ref : i.rdmaPorts()) byPort.putIfAbsent(ref.toString(), i);
        }
        List<Network> rails = new ArrayList<>();
        List<RdmaPort> active = inventory.rdmaDevices().stream()
                .sorted(Comparator.comparing(RdmaDevice::name, dev.railyard.platform.NaturalOrder.INSTANCE))
                .flatMap(d -> d.ports().stream())
                .filter(p -> p.state().optional().map(RdmaPort.PortState::isActive).orElse(false))
                .toList();
        for (RdmaPort port : active) {
            NetInterface netdev = byPort.get(port.ref());
            if (netdev == null) {
                todos.add(port.ref() + " is ACTIVE but no netdev carries it (no IPoIB interface?): "
                        + "add its network by hand");
                continue;
            }
            Optional<Ipv4Cidr> address = ipv4(netdev);
            if (address.isEmpty()) todos.add(netdev.name() + " (" + port.ref() + ") has no IPv4 address: set one");
            Optional<LinkLayer> linkLayer = port.isInfiniband() ? Optional.of(LinkLayer.INFINIBAND)
                    : port.isEthernet() ? Optional.of(LinkLayer.ETHERNET) : Optional.empty();
            Optional<IpoibMode> ipoib = netdev.ipoibMode().optional()
                    .flatMap(m -> parseEnum(IpoibMode.class, m.trim()));
            Optional<Integer> mtu = netdev.mtu().optional()
                    .filter(m -> m >= NetworkMapper.MTU_MIN && m <= NetworkMapper.MTU_MAX);
            String railName = "rail" + rails.size();
            if (linkLayer.equals(Optional.of(LinkLayer.ETHERNET)) && mtu.map(m -> m < NetInterface.JUMBO_MTU).orElse(false)) {
                notes.put("network." + railName + ".mtu", "as found on " + netdev.name() + "; RoCE wants "
                        + NetInterface.JUMBO_MTU + " (check without a spec warns): set " + NetInterface.JUMBO_MTU
                        + " here and on the netdev, or keep " + mtu.get() + " on purpose");
            }
            rails.add(new Network(railName, Role.COMPUTE, linkLayer,
                    port.rate().optional().map(RdmaPort.LinkRate::gbps).filter(g -> g > 0),
                    mtu, address.map(a -> a.network().toString()), ipoib,
                    Map.of(node, new Binding(netdev.name(),
                            Optional.of(new RdmaPortRef(port.device(), port.port())),
                            address.map(Ipv4Cidr::address)))));
        }
        return rails;
    }

    private static <E extends Enum<E>> Optional<E> parseEnum(Class<E> type, String text) {
        Function<E, String> lower = e -> e.name().toLowerCase(Locale.ROOT);
        return java.util.Arrays.stream(type.getEnumConstants()).filter(e -> lower.apply(e).equalsIgnoreCase(text))
                .findFirst();
    }
}
