package dev.railyard.check;

import dev.railyard.check.rules.RdmaNetdevAddressRule;
import dev.railyard.model.CheckId;
import dev.railyard.model.Finding;
import dev.railyard.model.NetInterface;
import dev.railyard.model.RdmaPort;
import dev.railyard.model.Reading;
import dev.railyard.model.RdmaPort.Gid;
import dev.railyard.model.RdmaPort.GidType;
import dev.railyard.model.Severity;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * rdma.roce.gid: every RoCE port needs a RoCE v2 GID for its IPv4 address; the finding names the GID index to pass
 * to perftest ("Unable to find GID" -> --gid-index: index 2 = RoCE v2 ::ffff:10.0.0.1 on mlx4_0:2, for example).
 */
public final class RoceGidCheck implements Check {

    static final String ID = CheckId.RDMA_ROCE_GID.id();

    @Override
    public String id() {
        return ID;
    }

    @Override
    public List<Finding> run(CheckInput in) {
        List<Finding> out = new ArrayList<>();
        for (RdmaPort p : in.ports()) {
            Optional<CheckInput.Bound> bound = in.bindingFor(p);
            boolean active = p.state().optional().map(RdmaPort.PortState::isActive).orElse(false);
            if (!active && bound.isEmpty()) continue; // an unused, unlinked port has no address to need a GID for
            if (!(p.linkLayer() instanceof Reading.Present<String>)) {
                // it may be a RoCE port: not judged, and said so rather than dropped
                out.add(Finding.unknown(ID, p.ref(), p.linkLayer(), "a RoCE v2 GID for the port's IPv4 address when it is RoCE"));
                continue;
            }
            if (!p.isEthernet()) continue;
            List<NetInterface> netdevs = in.netdevsOf(p);
            Optional<String> netdev = bound.map(b -> b.binding().netdev())
                    .or(() -> netdevs.stream().map(NetInterface::name).findFirst());
            List<String> wanted = bound.flatMap(b -> b.binding().address()).map(a -> List.of(bare(a)))
                    .orElseGet(() -> netdevs.stream().flatMap(n -> n.addresses().orElse(List.of()).stream())
                            .map(RoceGidCheck::bare).filter(a -> a.indexOf('.') > 0 && a.indexOf(':') < 0).toList());
            if (wanted.isEmpty()) {
                out.add(Finding.of(ID, Severity.WARN, p.ref(), netdev.orElse("its netdev") + " has no IPv4 address",
                        "a RoCE v2 GID for the port's IPv4 address",
                        Fix.lines(Fix.note("give the port's netdev its fabric address: bind it in the spec (networks[].bind) "
                                + "and check again for the exact commands"),
                                "rdma link show " + ShellWord.of(p.device() + "/" + p.port()))));
                continue;
            }
            Optional<String> specCidr = bound.flatMap(b -> b.binding().address().map(a -> withPrefix(a, b.network().subnet())));
            for (String addr : wanted) out.add(judge(p, netdev.orElse(p.device()), addr, specCidr));
        }
        return out;
    }

    private static Finding judge(RdmaPort p, String netdev, String addr, Optional<String> specAddress) {
        String expected = "RoCE v2 GID ::ffff:" + addr;
        List<Gid> forAddr = p.gids().stream().filter(g -> ipv4Of(g.gid()).map(addr::equals).orElse(false)).toList();
        Optional<Gid> v2 = forAddr.stream().filter(g -> g.type().optional().map(t -> t == GidType.ROCE_V2).orElse(false)).findFirst();
        if (v2.isPresent()) {
            return new Finding(ID, Severity.PASS, p.ref(), "GID index " + v2.get().index() + " = RoCE v2 " + v2.get().gid(),
                    expected, "ib_write_bw --ib-dev=" + ShellWord.of(p.device()) + " --ib-port=" + p.port()
                            + " --gid-index=" + v2.get().index());
        }
        Optional<Gid> untyped = forAddr.stream().filter(g -> !g.type().isPresent()).findFirst();
        if (untyped.isPresent()) {
            return new Finding(ID, Severity.UNKNOWN, p.ref(), "GID index " + untyped.get().index() + " = " + untyped.get().gid()
                    + ", type " + untyped.get().type().describe(), expected,
                    "cat " + ShellWord.of("/sys/class/infiniband/" + p.device() + "/ports/" + p.port()
                            + "/gid_attrs/types/" + untyped.get().index()));
        }
        if (!forAddr.isEmpty()) {
            return Finding.of(ID, Severity.FAIL, p.ref(), "only RoCE v1 GID index " + forAddr.getFirst().index()
                    + " for " + addr, expected, Fix.lines(
                            Fix.note("ConnectX-3 turns RoCE v2 on in mlx4_core; the reload takes the port down briefly "
                                    + "(or run perftest with --gid-index=" + forAddr.getFirst().index() + " against RoCE v1 peers only)"),
                            "echo 'options mlx4_core roce_mode=2' > /etc/modprobe.d/mlx4-roce.conf",
                            "modprobe -r mlx4_ib mlx4_en mlx4_core && modprobe mlx4_core && modprobe mlx4_en && modprobe mlx4_ib"));
        }
        // The GID table follows the netdev's addresses: adding the spec's address adds its GIDs.
        String dev = ShellWord.of(netdev);
        String fix = specAddress.filter(a -> a.contains("/"))
                .map(c -> Fix.lines("ip addr add " + c + " dev " + dev,
                        Fix.netplanDropIn(netdev, "address", "addresses: [" + c + "]")))
                .orElse(Fix.lines(Fix.note(addr + " is on " + netdev + " but not in the GID table: bounce the link to rebuild it"),
                        "ip link set dev " + dev + " down && ip link set dev " + dev + " up"));
        return Finding.of(ID, Severity.FAIL, p.ref(), "no GID for " + addr + " (" + p.gids().size() + " GIDs)", expected, fix);
    }

    /** The spec's bare address with its network's prefix ("10.0.0.1" in 10.0.0.0/24 -> "10.0.0.1/24"), so the fix is exact. */
    static String withPrefix(String address, Optional<String> subnet) {
        return RdmaNetdevAddressRule.withPrefix(address, subnet);
    }

    /** "10.0.0.1/24" -> "10.0.0.1". */
    static String bare(String address) {
        return RdmaNetdevAddressRule.bare(address);
    }

    /** The IPv4 address in an IPv4-mapped GID, in either sysfs ("0000:...:ffff:0a00:0001") or short form. */
    static Optional<String> ipv4Of(String gid) {
        // A literal with ':' is never resolved through DNS, so this stays pure.
        if (gid.indexOf(':') < 0 || !gid.toLowerCase(java.util.Locale.ROOT).contains("ffff")) return Optional.empty();
        try {
            InetAddress a = InetAddress.getByName(gid);
            return a instanceof Inet4Address v4 ? Optional.of(v4.getHostAddress()) : Optional.empty();
        } catch (UnknownHostException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
