package dev.railyard.bench.perftest;

import dev.railyard.model.NetInterface;
import dev.railyard.model.NodeInventory;
import dev.railyard.model.RailyardException;
import dev.railyard.model.RdmaPort;
import dev.railyard.model.Ipv4Cidr;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Collectors;

/**
 * The RDMA port, GID index and NUMA node one side of a perftest pair uses, chosen from the inventory the way the
 * seeds choose them by hand: the port whose netdev is on the peer's subnet (or the only ACTIVE one), and on RoCE
 * the RoCE v2 GID that carries the netdev's IPv4 address (mlx4_0 port 2 with 10.0.0.1: index 2, for example).
 * {@code reason} says in words why, so the user can tell a wrong guess from a wrong cable.
 */
public record PortChoice(RdmaPort port, Optional<NetInterface> netdev, OptionalInt gidIndex, OptionalInt numaNode,
                         String reason) {

    /** What the user gave; anything empty is chosen from the inventory. */
    public record Request(Optional<String> device, OptionalInt port, OptionalInt gidIndex, Optional<String> netdev,
                          Optional<String> peerAddress) {
        public static Request none() {
            return new Request(Optional.empty(), OptionalInt.empty(), OptionalInt.empty(), Optional.empty(),
                    Optional.empty());
        }
    }

    private static final String IPV4_MAPPED = "0000:0000:0000:0000:0000:ffff:";

    public static PortChoice choose(NodeInventory inv, Request req) {
        List<RdmaPort> all = inv.rdmaDevices().stream().flatMap(d -> d.ports().stream()).toList();
        if (all.isEmpty()) {
            throw new RailyardException.MissingPrerequisite("no RDMA device under /sys/class/infiniband",
                    "load the RDMA driver (modprobe mlx5_ib or mlx4_ib) and check `ibv_devices`; "
                            + "install rdma-core (apt install rdma-core / dnf install rdma-core)");
        }
        List<RdmaPort> candidates = all;
        String why;
        if (req.device().isPresent() || req.port().isPresent()) {
            candidates = all.stream()
                    .filter(p -> req.device().map(d -> d.equals(p.device())).orElse(true))
                    .filter(p -> req.port().isEmpty() || req.port().getAsInt() == p.port()).toList();
            if (candidates.isEmpty()) {
                throw new RailyardException.Usage("no RDMA port " + req.device().orElse("*") + ":"
                        + (req.port().isPresent() ? req.port().getAsInt() : "*") + " on this node",
                        "ports here: " + describe(all, inv));
            }
            if (candidates.size() > 1) candidates = active(candidates);
            why = "as given";
        } else if (req.netdev().isPresent()) {
            NetInterface n = inv.interfaces().stream().filter(i -> i.name().equals(req.netdev().get())).findFirst()
                    .orElseThrow(() -> new RailyardException.Usage("no interface " + req.netdev().get(),
                            "interfaces with RDMA ports: " + describe(all, inv)));
            candidates = all.stream().filter(p -> carries(n, p)).toList();
            if (candidates.isEmpty()) {
                throw new RailyardException.Usage(n.name() + " carries no RDMA port",
                        "pick one of: " + describe(all, inv));
            }
            why = "the port of netdev " + n.name();
        } else if (req.peerAddress().flatMap(Ipv4Cidr::parseAddress).isPresent()) {
            int peer = req.peerAddress().flatMap(Ipv4Cidr::parseAddress).get();
            List<RdmaPort> onSubnet = active(all).stream()
                    .filter(p -> netdevOf(inv, p).map(n -> onSubnet(n, peer)).orElse(false)).toList();
            candidates = onSubnet.isEmpty() ? active(all) : onSubnet;
            why = onSubnet.isEmpty() ? "the only ACTIVE port (none is on " + req.peerAddress().get() + "'s subnet)"
                    : "the ACTIVE port on " + req.peerAddress().get() + "'s subnet";
        } else {
            candidates = active(all);
            why = "the only ACTIVE port";
        }
        if (candidates.isEmpty()) {
            throw new RailyardException.Usage("no ACTIVE RDMA port to test on", "ports here: " + describe(all, inv)
                    + "; bring a link up (`rdma link show`, check the cable) or name a port with --ib-dev/--ib-port");
        }
        if (candidates.size() > 1) {
            throw new RailyardException.Usage("more than one port fits (" + describe(candidates, inv) + ")",
                    "name one with --netdev IFNAME or --ib-dev DEV --ib-port N"
                            + (req.peerAddress().isPresent() ? "" : ", or give the peer's address"));
        }
        RdmaPort port = candidates.getFirst();
        Optional<NetInterface> netdev = netdevOf(inv, port);
        OptionalInt gid = req.gidIndex().isPresent() ? req.gidIndex() : roceGid(port, netdev, req.peerAddress());
        return new PortChoice(port, netdev, gid, numaNode(inv, port), why);
    }

    /**
     * The RoCE v2 GID whose value is the IPv4-mapped address of the port's netdev (preferring the address on the
     * peer's subnet), else the first RoCE v2 IPv4 GID. InfiniBand addresses by LID: no index.
     */
    static OptionalInt roceGid(RdmaPort port, Optional<NetInterface> netdev, Optional<String> peer) {
        if (!port.isEthernet()) return OptionalInt.empty();
        List<RdmaPort.Gid> v2 = port.gids().stream()
                .filter(g -> g.type().optional().map(t -> t == RdmaPort.GidType.ROCE_V2).orElse(false))
                .filter(g -> g.gid().toLowerCase(Locale.ROOT).startsWith(IPV4_MAPPED)).toList();
        List<Ipv4Cidr> addrs = netdev.map(PortChoice::ipv4).orElse(List.of());
        Optional<Integer> peerBits = peer.flatMap(Ipv4Cidr::parseAddress);
        List<Ipv4Cidr> preferred = new ArrayList<>(addrs.stream()
                .filter(a -> peerBits.map(b -> a.network().contains(b)).orElse(false)).toList());
        preferred.addAll(addrs);
        for (Ipv4Cidr a : preferred) {
            String mapped = IPV4_MAPPED + mappedTail(a.bits());
            Optional<RdmaPort.Gid> hit = v2.stream().filter(g -> g.gid().equalsIgnoreCase(mapped)).findFirst();
            if (hit.isPresent()) return OptionalInt.of(hit.get().index());
        }
        return v2.stream().mapToInt(RdmaPort.Gid::index).min().stream().boxed().findFirst().map(OptionalInt::of)
                .orElseThrow(() -> new RailyardException.Usage(port.ref() + " has no RoCE v2 GID with an IPv4 address",
                        "give " + netdev.map(NetInterface::name).orElse("the port's netdev")
                                + " an IPv4 address, then check `show_gids`; or pass --gid-index"));
    }

    /** "0a00:0001" for 10.0.0.1: the last two groups of an IPv4-mapped GID as sysfs prints it. */
    static String mappedTail(int bits) {
        return String.format("%04x:%04x", (bits >>> 16) & 0xffff, bits & 0xffff);
    }

    public Optional<String> ipv4Address() {
        return netdev.flatMap(n -> ipv4(n).stream().findFirst()).map(Ipv4Cidr::address);
    }

    private static List<Ipv4Cidr> ipv4(NetInterface n) {
        return n.addresses().orElse(List.of()).stream().map(Ipv4Cidr::parse).flatMap(Optional::stream).toList();
    }

    private static boolean onSubnet(NetInterface n, int peer) {
        return ipv4(n).stream().anyMatch(a -> a.network().contains(peer));
    }

    private static boolean carries(NetInterface n, RdmaPort p) {
        return n.rdmaPorts().stream().anyMatch(r -> r.device().equals(p.device()) && r.port() == p.port());
    }

    private static Optional<NetInterface> netdevOf(NodeInventory inv, RdmaPort p) {
        return inv.interfaces().stream().filter(n -> carries(n, p)).findFirst();
    }

    private static List<RdmaPort> active(List<RdmaPort> ports) {
        return ports.stream().filter(p -> p.state().optional().map(RdmaPort.PortState::isActive).orElse(false)).toList();
    }

    /** The HCA's NUMA node from its PCI function; sysfs writes -1 when the machine has one node or does not say. */
    private static OptionalInt numaNode(NodeInventory inv, RdmaPort port) {
        Optional<String> pci = inv.rdmaDevices().stream().filter(d -> d.name().equals(port.device())).findFirst()
                .flatMap(d -> d.pciAddress().optional());
        return pci.flatMap(a -> inv.pciDevices().stream().filter(d -> d.address().equals(a)).findFirst())
                .flatMap(d -> d.numaNode().optional()).filter(n -> n >= 0)
                .map(OptionalInt::of).orElse(OptionalInt.empty());
    }

    private static String describe(List<RdmaPort> ports, NodeInventory inv) {
        return ports.stream().map(p -> p.ref() + " " + p.state().optional().map(RdmaPort.PortState::name).orElse("?")
                        + netdevOf(inv, p).map(n -> " " + n.name()
                        + ipv4(n).stream().map(a -> " " + a).collect(Collectors.joining())).orElse(""))
                .collect(Collectors.joining(", "));
    }
}
