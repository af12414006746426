package dev.railyard.check;

import dev.railyard.check.rules.RdmaNetdevAddressRule;
import dev.railyard.check.rules.RdmaNetdevMtuRule;
import dev.railyard.model.CheckId;
import dev.railyard.model.ClusterSpec;
import dev.railyard.model.Finding;
import dev.railyard.model.NetInterface;
import dev.railyard.model.RdmaPort;
import dev.railyard.model.Reading;
import dev.railyard.model.Unlisted;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * rdma.netdev.mtu and rdma.netdev.address on a node, judged by {@link RdmaNetdevMtuRule} and
 * {@link RdmaNetdevAddressRule}. Fabric netdevs are the spec's bound ones, or without a spec those carrying an ACTIVE
 * RDMA port (unused NICs may be down on purpose).
 */
public final class FabricNetdevCheck implements Check {

    static final String MTU = CheckId.RDMA_NETDEV_MTU.id();
    static final String ADDRESS = CheckId.RDMA_NETDEV_ADDRESS.id();

    @Override
    public String id() {
        return "rdma.netdev";
    }

    @Override
    public List<Finding> run(CheckInput in) {
        List<Finding> out = new ArrayList<>();
        if (in.spec().isPresent()) {
            for (CheckInput.Bound b : in.bindings()) {
                if (b.network().role() == ClusterSpec.Role.MANAGEMENT) continue;
                String name = b.binding().netdev();
                Optional<NetInterface> nd = in.netdev(name);
                if (nd.isEmpty()) {
                    out.add(missingNetdev(in, b));
                    continue;
                }
                boolean rdma = b.network().carriesRdma() || b.binding().rdma().isPresent() || carriesRdmaPort(in, nd.get());
                mtu(nd.get(), Optional.of(b.network()), isIb(in, nd.get()), rdma, out);
                address(nd.get(), b.binding().address(), b.network().subnet(), out);
            }
            return out;
        }
        for (NetInterface nd : in.inventory().interfaces()) {
            List<RdmaPort> ports = in.ports().stream().filter(p -> in.netdevsOf(p).contains(nd)).toList();
            boolean active = ports.stream().anyMatch(p -> p.state().optional().map(RdmaPort.PortState::isActive).orElse(false));
            if (!active) continue;
            mtu(nd, Optional.empty(), ports.stream().anyMatch(RdmaPort::isInfiniband), true, out);
            address(nd, Optional.empty(), Optional.empty(), out);
        }
        return out;
    }

    /**
     * A bound netdev that is not there. When its RDMA port is missing too, a driver is the likely cause (rdma.port.state
     * says which to load); when the port is there, the spec names the wrong netdev and the port's own netdev is known.
     */
    private static Finding missingNetdev(CheckInput in, CheckInput.Bound b) {
        String name = b.binding().netdev();
        String expected = "netdev of network " + b.network().name();
        var unlisted = in.inventory().unlisted(Unlisted.Subsystem.NET);
        if (unlisted.isPresent()) {
            // nothing in sys/class/net could be seen, so the netdev is not known to be missing
            return Finding.unknown(ADDRESS, name, Reading.failed(unlisted.get().path(), unlisted.get().cause()), expected);
        }
        var ref = b.binding().rdma();
        if (ref.isPresent()) {
            var port = in.ports().stream().filter(p -> p.device().equals(ref.get().device()) && p.port() == ref.get().port()).findFirst();
            if (port.isEmpty()) {
                MissingRdmaDevice why = in.inventory().rdmaDevices().stream().anyMatch(d -> d.name().equals(ref.get().device()))
                        ? new MissingRdmaDevice("", "ls " + ShellWord.of("/sys/class/infiniband/" + ref.get().device()
                                + "/ports/"))
                        : MissingRdmaDevice.of(in, ref.get().device());
                return RdmaNetdevAddressRule.noNetdevNorPort(ref.get().device() + ":" + ref.get().port(), expected,
                        why.remediation()).on(name);
            }
            List<String> carriers = in.netdevsOf(port.get()).stream().map(NetInterface::name).toList();
            if (!carriers.isEmpty()) {
                return RdmaNetdevAddressRule.carriedByOthers(name, port.get().ref(), carriers, expected).on(name);
            }
        }
        String present = in.inventory().interfaces().stream().map(NetInterface::name).collect(java.util.stream.Collectors.joining(", "));
        return RdmaNetdevAddressRule.noNetdev(in.node(), present, expected).on(name);
    }

    private static boolean carriesRdmaPort(CheckInput in, NetInterface nd) {
        return in.ports().stream().anyMatch(p -> in.netdevsOf(p).contains(nd));
    }

    private static boolean isIb(CheckInput in, NetInterface nd) {
        return in.ports().stream().filter(p -> in.netdevsOf(p).contains(nd)).anyMatch(RdmaPort::isInfiniband)
                || nd.ipoibMode().isPresent();
    }

    private static void mtu(NetInterface nd, Optional<ClusterSpec.Network> net, boolean ipoib, boolean rdma,
                            List<Finding> out) {
        boolean wantConnected = net.flatMap(ClusterSpec.Network::ipoibMode).map(m -> m == ClusterSpec.IpoibMode.CONNECTED).orElse(false);
        Optional<Integer> specMtu = net.flatMap(ClusterSpec.Network::mtu);
        out.add((ipoib ? RdmaNetdevMtuRule.ipoib(nd.name(), nd.ipoibMode(), nd.mtu(), specMtu, wantConnected)
                : RdmaNetdevMtuRule.ethernet(nd.name(), nd.mtu(), specMtu, rdma)).on(nd.name()));
    }

    private static void address(NetInterface nd, Optional<String> specAddress, Optional<String> subnet, List<Finding> out) {
        out.add(RdmaNetdevAddressRule.judge(nd.name(), nd.operState(), nd.addresses(), specAddress, subnet).on(nd.name()));
    }
}
