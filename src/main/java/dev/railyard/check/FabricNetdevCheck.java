package dev.railyard.check;

import dev.railyard.model.CheckId;
import dev.railyard.model.ClusterSpec;
import dev.railyard.model.Finding;
import dev.railyard.model.NetInterface;
import dev.railyard.model.RdmaPort;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;
import dev.railyard.model.Unlisted;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * rdma.netdev.mtu (RoCE netdev below 9000 / the spec's MTU; IPoIB not connected mode with 65520 when the spec asks;
 * on a network without RDMA only the spec's MTU is judged)
 * and rdma.netdev.address (a fabric netdev without its spec address, or down). Fabric netdevs are the spec's bound
 * ones, or without a spec those carrying an ACTIVE RDMA port (unused NICs may be down on purpose).
 */
public final class FabricNetdevCheck implements Check {

    static final String MTU = CheckId.RDMA_NETDEV_MTU.id();
    static final String ADDRESS = CheckId.RDMA_NETDEV_ADDRESS.id();
    /** Operstates in which the netdev passes no traffic, whatever address it holds. */
    private static final java.util.Set<String> LINK_DOWN = java.util.Set.of("down", "lowerlayerdown", "notpresent");

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
                return Finding.of(ADDRESS, Severity.FAIL, name, "no such interface, and no RDMA port "
                        + ref.get().device() + ":" + ref.get().port() + " either", expected, why.remediation());
            }
            List<String> carriers = in.netdevsOf(port.get()).stream().map(NetInterface::name).toList();
            if (!carriers.isEmpty()) {
                return Finding.of(ADDRESS, Severity.FAIL, name, "no such interface; " + port.get().ref() + " is carried by "
                        + String.join(", ", carriers), expected, Fix.lines(Fix.note("the spec names " + name + " for "
                        + port.get().ref() + ": railyard init writes the names this node uses"), "ip -br link"));
            }
        }
        String present = in.inventory().interfaces().stream().map(NetInterface::name).collect(java.util.stream.Collectors.joining(", "));
        return Finding.of(ADDRESS, Severity.FAIL, name, "no such interface on " + in.node() + " (it has " + present + ")",
                expected, Fix.lines(Fix.note("a NIC driver not loaded, or the spec names another interface"),
                        "ip -br link", "lspci -k | grep -A3 -iE 'ethernet|infiniband'"));
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
        if (ipoib) {
            if (!wantConnected && specMtu.isEmpty()) {
                out.add(Finding.of(MTU, Severity.INFO, nd.name(), "mode " + nd.ipoibMode().describe() + ", mtu "
                        + nd.mtu().describe(), "IPoIB: no mode asked by a spec", ""));
                return;
            }
            int want = specMtu.orElse(NetInterface.IPOIB_CONNECTED_MTU);
            String expected = (wantConnected ? "connected mode, " : "") + "mtu " + want;
            if (!nd.mtu().isPresent() || wantConnected && !nd.ipoibMode().isPresent()) {
                out.add(Finding.unknown(MTU, nd.name(), nd.mtu().isPresent() ? nd.ipoibMode() : nd.mtu(), expected));
                return;
            }
            boolean modeOk = !wantConnected || nd.ipoibMode().orElse("").equalsIgnoreCase("connected");
            boolean mtuOk = nd.mtu().orElse(0) >= want;
            String observed = "mode " + nd.ipoibMode().orElse("?") + ", mtu " + nd.mtu().orElse(0);
            out.add(modeOk && mtuOk ? Finding.pass(MTU, nd.name(), observed, expected)
                    : Finding.of(MTU, Severity.FAIL, nd.name(), observed, expected, "nmcli connection modify "
                    + ShellWord.of(nd.name()) + " infiniband.transport-mode connected infiniband.mtu " + want
                    + " && nmcli connection up " + ShellWord.of(nd.name())));
            // nmcli both applies and persists: one line is the whole fix.
            return;
        }
        if (!rdma && specMtu.isEmpty()) {
            // jumbo frames are RoCE's need; on a TCP network the MTU is the spec's choice, and it made none
            out.add(Finding.of(MTU, Severity.INFO, nd.name(), nd.mtu().describe(),
                    "no MTU in the spec; a network without RDMA needs no jumbo frames", ""));
            return;
        }
        int want = specMtu.orElse(NetInterface.JUMBO_MTU);
        String expected = ">= " + want + (specMtu.isPresent() ? " (spec)" : " (jumbo frames for RoCE)");
        if (!(nd.mtu() instanceof Reading.Present<Integer>(Integer mtu))) {
            out.add(Finding.unknown(MTU, nd.name(), nd.mtu(), expected));
            return;
        }
        if (mtu >= want) {
            out.add(Finding.pass(MTU, nd.name(), String.valueOf(mtu), expected));
            return;
        }
        out.add(Finding.of(MTU, specMtu.isPresent() ? Severity.FAIL : Severity.WARN, nd.name(), String.valueOf(mtu), expected,
                Fix.lines("ip link set dev " + ShellWord.of(nd.name()) + " mtu " + want,
                        Fix.netplanDropIn(nd.name(), "mtu", "mtu: " + want))));
    }

    private static void address(NetInterface nd, Optional<String> specAddress, Optional<String> subnet, List<Finding> out) {
        // "is it up" is half the judgement: an operstate that could not be read leaves the finding UNKNOWN, not PASS
        if (!(nd.operState() instanceof Reading.Present<String>(String oper))) {
            out.add(Finding.unknown(ADDRESS, nd.name(), nd.operState(), "up" + specAddress.map(a -> " with " + a).orElse("")));
            return;
        }
        if (LINK_DOWN.contains(oper.toLowerCase(java.util.Locale.ROOT))) {
            out.add(Finding.of(ADDRESS, Severity.FAIL, nd.name(), "operstate " + oper, "up" + specAddress.map(a -> " with " + a).orElse(""),
                    Fix.lines("ip link set dev " + ShellWord.of(nd.name()) + " up",
                            Fix.note("it stays up after a reboot once netplan configures it (the address fix below)"))));
            return;
        }
        Reading<List<String>> addrs = nd.addresses();
        String expected = specAddress.map(a -> "address " + a).orElse("an IPv4 address");
        if (!(addrs instanceof Reading.Present<List<String>>(List<String> list))) {
            out.add(Finding.unknown(ADDRESS, nd.name(), addrs, expected));
            return;
        }
        List<String> v4 = list.stream().filter(a -> RoceGidCheck.bare(a).indexOf(':') < 0).toList();
        String observed = v4.isEmpty() ? "no IPv4 address" : String.join(", ", v4);
        boolean ok = specAddress.map(want -> list.stream().anyMatch(a -> RoceGidCheck.bare(a).equals(RoceGidCheck.bare(want))))
                .orElse(!v4.isEmpty());
        if (ok) {
            out.add(Finding.pass(ADDRESS, nd.name(), observed, expected));
            return;
        }
        Optional<String> cidr = specAddress.map(a -> RoceGidCheck.withPrefix(a, subnet)).filter(a -> a.contains("/"));
        out.add(Finding.of(ADDRESS, specAddress.isPresent() ? Severity.FAIL : Severity.WARN, nd.name(), observed, expected,
                cidr.map(c -> Fix.lines("ip addr add " + c + " dev " + ShellWord.of(nd.name()),
                                Fix.netplanDropIn(nd.name(), "address", "addresses: [" + c + "]")))
                        .orElse(Fix.lines(Fix.note("give " + nd.name() + " its fabric address: bind it in the spec "
                                + "(networks[].bind) and check again for the exact commands"),
                                "ip -br addr show " + ShellWord.of(nd.name())))));
    }
}
