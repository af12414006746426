package dev.railyard.check;

import dev.railyard.check.rules.RdmaNetdevAddressRule;
import dev.railyard.check.rules.RoceGidRule;
import dev.railyard.model.CheckId;
import dev.railyard.model.Finding;
import dev.railyard.model.NetInterface;
import dev.railyard.model.RdmaPort;
import dev.railyard.model.Reading;
import dev.railyard.model.RdmaPort.Gid;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * rdma.roce.gid on a node: each RoCE port's IPv4 addresses (the spec's, else its netdevs') and the GIDs of its table
 * that carry each, judged by {@link RoceGidRule}.
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
                out.add(RoceGidRule.linkLayerUnread(p.linkLayer()).on(p.ref()));
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
                out.add(RoceGidRule.noIpv4(p.device(), p.port(), netdev.orElse("its netdev")).on(p.ref()));
                continue;
            }
            Optional<String> specCidr = bound.flatMap(b -> b.binding().address().map(a -> withPrefix(a, b.network().subnet())));
            for (String addr : wanted) out.add(judge(p, netdev.orElse(p.device()), addr, specCidr));
        }
        return out;
    }

    private static Finding judge(RdmaPort p, String netdev, String addr, Optional<String> specAddress) {
        List<Gid> forAddr = p.gids().stream().filter(g -> ipv4Of(g.gid()).map(addr::equals).orElse(false)).toList();
        return RoceGidRule.forAddress(p.device(), p.port(), netdev, addr, forAddr, p.gids().size(), specAddress)
                .on(p.ref());
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
