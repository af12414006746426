package dev.railyard.check;

import dev.railyard.model.ClusterSpec;
import dev.railyard.model.Finding;
import dev.railyard.model.Gpu;
import dev.railyard.model.NetInterface;
import dev.railyard.model.NodeFacts;
import dev.railyard.model.NodeInventory;
import dev.railyard.model.PcieLink;
import dev.railyard.model.RdmaDevice;
import dev.railyard.model.RdmaPort;
import dev.railyard.model.Reading;
import dev.railyard.model.XidEvent;
import dev.railyard.spec.SpecReader;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import static dev.railyard.check.Inventories.*;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Names read from a machine or a spec go into fixes an admin pastes into a root shell. A Linux netdev name may hold
 * {@code $ ; ' ( `} (only '/', ':', whitespace and NUL are refused), so every check that names a netdev, an RDMA
 * device, a PCI address or a node in a command is run here on hostile names: each fix must stay runnable, and the
 * names' "pwned" must sit inside single quotes on every line that runs, never where the shell would expand it.
 */
class FixQuotingTest {

    private static final String MARK = "pwned";
    private static final String NET = "eth'1$(pwned)";
    private static final String NET2 = "ib;pwned";
    private static final String NET_IPOIB = "ib0`pwned`";
    private static final String NET_MISSING = "ens&pwned";
    private static final String DEV = "mlx4;pwned$x";
    private static final String GPU_PCI = "0000:3b:00.0;pwned";
    private static final String NODE = "gpu$(pwned)";

    private final List<String> problems = new ArrayList<>();
    private final Set<String> reached = new TreeSet<>();
    private final Set<String> unsafe = new TreeSet<>();

    /**
     * The characters of a command line the shell sees outside single quotes (a backslash-escaped one dropped); the
     * whole line when a quote is left open, since then nothing on it is quoted as meant.
     */
    static String exposed(String line) {
        StringBuilder out = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted) {
                if (c == '\'') quoted = false;
            } else if (c == '\'') {
                quoted = true;
            } else if (c == '\\') {
                i++;
            } else {
                out.append(c);
            }
        }
        return quoted ? line : out.toString();
    }

    private void judge(List<Finding> findings) {
        for (Finding f : findings) {
            if (f.remediation().isEmpty() || !f.remediation().contains(MARK)) continue;
            String what = f.id() + " " + f.severity() + " " + f.subject();
            reached.add(f.id() + " " + f.severity());
            int before = problems.size();
            RunnableFixes.problem(what, f.remediation()).ifPresent(problems::add);
            for (String line : f.remediation().lines().toList()) {
                if (line.startsWith("# ")) continue;
                if (exposed(line).contains(MARK)) problems.add(what + ": a name outside quotes in: " + line);
            }
            if (problems.size() > before) unsafe.add(what);
        }
    }

    private void node(NodeInventory inv, Optional<ClusterSpec> spec, String node) {
        judge(CheckRunner.nodeChecks().run(new CheckInput(inv, spec, node)));
    }

    private static NetInterface nic(String name, int mtu, String oper, List<String> addrs, long carrierChanges,
                                    Reading<String> ipoib, NetInterface.RdmaPortRef... ports) {
        NetInterface n = netdev(name, mtu, oper, addrs, "0000:04:00.0", carrierChanges, ports);
        return new NetInterface(n.name(), n.mtu(), n.speedMbps(), n.operState(), n.carrier(), n.carrierChanges(), n.mac(),
                n.driver(), n.pciAddress(), n.addresses(), n.bondMaster(), n.bondSlaves(), ipoib, n.rdmaPorts());
    }

    private static RdmaPort roce(int n, int state, String stateName, int phys, String physName, String rate, double gbps,
                                 String width, List<RdmaPort.Gid> gids, Map<String, Long> counters) {
        return port(DEV, n, state, stateName, phys, physName, rate, gbps, width, "Ethernet", 0, gids, counters);
    }

    /**
     * A node whose every name is hostile: port 1 on NET at 10G (its sibling at 40G), MTU 1500, no address, flapping,
     * with errors; port 2 on NET2, down with an address and {@code port2Gids}; a GPU trained at x8 with an Xid.
     */
    private static NodeInventory hostile(RdmaPort port1, List<RdmaPort.Gid> port2Gids) {
        Map<String, Long> errors = new LinkedHashMap<>(zeroCounters());
        errors.put("symbol_error", 7L);
        RdmaPort p1 = port1 != null ? port1
                : roce(1, 4, "ACTIVE", 5, "LinkUp", "10 Gb/sec (1X QDR)", 10, "1X", List.of(), errors);
        RdmaPort p2 = roce(2, 4, "ACTIVE", 5, "LinkUp", "40 Gb/sec (4X QDR)", 40, "4X", port2Gids, zeroCounters());
        NodeInventory s1 = s1();
        Gpu narrow = gpuWith(gpu(0, GPU_PCI), Reading.of(40), Reading.of(List.of()), Reading.of(new Gpu.EccCounts(0, 0, 0, 0)),
                Reading.absent("row remapping needs A100 or later"), Reading.of(new PcieLink(3, 3, 8, 16)),
                Reading.of(List.of()));
        NodeInventory inv = withGpus(withRdma(withInterfaces(s1, List.of(
                nic(NET, 1500, "up", List.of(), 50, Reading.absent("not IPoIB"), new NetInterface.RdmaPortRef(DEV, 1)),
                nic(NET2, 9000, "down", List.of("10.0.0.1/24"), 2, Reading.absent("not IPoIB"),
                        new NetInterface.RdmaPortRef(DEV, 2)),
                nic(NET_IPOIB, 2044, "up", List.of("10.0.5.1/24"), 2, Reading.of("datagram")))),
                List.of(device(DEV, "0000:04:00.0", p1, p2))), List.of(narrow));
        return withXids(inv, Reading.of(List.of(
                new XidEvent("", "0000:3b:00", 79, "GPU has fallen off the bus.", "NVRM: Xid (PCI:0000:3b:00): 79"),
                new XidEvent("", "0000:3b:00", 48, "DBE", "NVRM: Xid (PCI:0000:3b:00): 48"))));
    }

    /** The spec binds NET (port 1, MTU 9000, 10.0.1.1), NET_MISSING (port 3, which DEV lacks) and IPoIB connected. */
    private static ClusterSpec hostileSpec() {
        ClusterSpec.Network rail0 = new ClusterSpec.Network("rail0", ClusterSpec.Role.COMPUTE,
                Optional.of(ClusterSpec.LinkLayer.ETHERNET), Optional.of(40.0), Optional.of(9000), Optional.of("10.0.1.0/24"),
                Optional.empty(), Map.of(NODE, new ClusterSpec.Binding(NET, Optional.of(new NetInterface.RdmaPortRef(DEV, 1)),
                Optional.of("10.0.1.1"))));
        ClusterSpec.Network rail1 = new ClusterSpec.Network("rail1", ClusterSpec.Role.COMPUTE,
                Optional.of(ClusterSpec.LinkLayer.ETHERNET), Optional.of(40.0), Optional.of(9000), Optional.of("10.0.3.0/24"),
                Optional.empty(), Map.of(NODE, new ClusterSpec.Binding(NET_MISSING,
                Optional.of(new NetInterface.RdmaPortRef(DEV, 3)), Optional.of("10.0.3.1"))));
        ClusterSpec.Network ib = new ClusterSpec.Network("ib", ClusterSpec.Role.COMPUTE,
                Optional.of(ClusterSpec.LinkLayer.INFINIBAND), Optional.empty(), Optional.empty(), Optional.of("10.0.5.0/24"),
                Optional.of(ClusterSpec.IpoibMode.CONNECTED), Map.of(NODE, new ClusterSpec.Binding(NET_IPOIB, Optional.empty(),
                Optional.of("10.0.5.1"))));
        return new ClusterSpec("hostile", "cluster.yaml",
                List.of(new ClusterSpec.Node(NODE, "192.168.1.73", Optional.empty(), Optional.empty())), Optional.empty(),
                List.of(rail0, rail1, ib), ClusterSpec.Expect.defaults());
    }

    @Test
    void everyNodeCheckQuotesTheNamesItPutsInAFix() {
        RdmaPort.Gid untyped = new RdmaPort.Gid(2, "0000:0000:0000:0000:0000:ffff:0a00:0001", Reading.absent("no type"),
                Reading.of(NET2));
        node(hostile(null, List.of()), Optional.empty(), NODE);
        node(hostile(null, List.of(gid(2, "0000:0000:0000:0000:0000:ffff:0a00:0001", RdmaPort.GidType.ROCE_V2, NET2))),
                Optional.empty(), NODE);
        node(hostile(null, List.of(untyped)), Optional.empty(), NODE);
        for (RdmaPort down : List.of(
                roce(1, 1, "DOWN", 2, "Polling", "10 Gb/sec (1X QDR)", 10, "1X", List.of(), zeroCounters()),
                roce(1, 1, "DOWN", 3, "Disabled", "10 Gb/sec (1X QDR)", 10, "1X", List.of(), zeroCounters()),
                roce(1, 1, "DOWN", 6, "LinkErrorRecovery", "10 Gb/sec (1X QDR)", 10, "1X", List.of(), zeroCounters()),
                port(DEV, 1, 1, "DOWN", 3, "Disabled", "10 Gb/sec (1X QDR)", 10, "1X", "InfiniBand", 0, List.of(),
                        zeroCounters()))) {
            node(hostile(down, List.of()), Optional.empty(), NODE);
        }
        node(hostile(null, List.of()), Optional.of(hostileSpec()), NODE);

        assertThat(reached).contains("net.carrier WARN", "rdma.netdev.mtu WARN", "rdma.netdev.mtu FAIL",
                "rdma.netdev.address WARN", "rdma.netdev.address FAIL", "rdma.roce.gid WARN", "rdma.roce.gid FAIL",
                "rdma.roce.gid PASS", "rdma.roce.gid UNKNOWN", "rdma.port.state WARN", "rdma.port.state FAIL",
                "rdma.port.phys WARN", "rdma.port.rate WARN", "rdma.port.rate FAIL", "rdma.counters WARN",
                "gpu.pcie.link WARN", "gpu.xid FAIL");
        assertThat(problems).as("%d fixes unsafe", unsafe.size()).isEmpty();
    }

    @Test
    void theFixesNameTheThingByItsQuotedWord() {
        List<Finding> out = CheckRunner.nodeChecks().run(new CheckInput(hostile(null, List.of()), Optional.empty(), NODE));
        assertThat(Found.one(out, "net.carrier", NET).remediation())
                .startsWith("ip -s link show dev " + ShellWord.of(NET) + "\nethtool -S " + ShellWord.of(NET) + " ");
        assertThat(Found.one(out, "rdma.netdev.address", NET2).remediation())
                .startsWith("ip link set dev " + ShellWord.of(NET2) + " up\n");
        assertThat(Found.one(out, "rdma.port.rate", DEV + ":1").remediation())
                .endsWith("\ncat " + ShellWord.of("/sys/class/infiniband/" + DEV + "/ports/1/rate"));
        assertThat(Found.one(out, "rdma.counters", DEV + ":1").remediation()) // RoCE
                .startsWith("rdma link show " + ShellWord.of(DEV + "/1") + "\n")
                .contains("\ngrep . " + ShellWord.of("/sys/class/infiniband/" + DEV + "/ports/1/counters/") + "*\n")
                .contains("\ndmesg | grep -i " + ShellWord.of(DEV) + "\n");
    }

    @Test
    void everyClusterCheckQuotesTheNetdevsItPutsInAFix() {
        ClusterSpec example = new SpecReader().read("s1.yaml", read("examples/s1-homelab-v100-roce.yaml"));
        ClusterSpec spec = renamed(example);
        NodeFacts a = facts("gpuserver1", 9000, "10.0.1.1/24", "10.0.0.1/24");
        // an MTU apart and an address outside the rail; then one address on both nodes
        run(spec, a, facts("gpuserver2", 1500, "10.0.1.2/24", "169.254.3.1/16"));
        run(spec, a, facts("gpuserver2", 9000, "10.0.1.1/24", "10.0.0.2/24"));
        assertThat(reached).contains("cluster.mtu FAIL", "cluster.addresses FAIL");
        assertThat(problems).as("%d fixes unsafe", unsafe.size()).isEmpty();
    }

    private void run(ClusterSpec spec, NodeFacts... facts) {
        Map<String, NodeFacts> m = new LinkedHashMap<>();
        for (NodeFacts f : facts) m.put(f.node(), f);
        ClusterInput in = new ClusterInput(spec, m, Map.of());
        for (ClusterCheck c : ClusterCheck.all()) judge(c.run(in));
    }

    private static NodeFacts facts(String node, int rail0Mtu, String rail0, String rail1) {
        return new NodeFacts(node, node, Reading.of("580.126.09"), Reading.of("13.0"), Reading.of("2.28.3"),
                Map.of(DEV, Reading.of("2.42.5000")), List.of(
                new NodeFacts.Netdev("enp5s0", Reading.of(1500), Reading.of("up"), Reading.of(List.of("192.168.1.7" + node.charAt(node.length() - 1) + "/24"))),
                new NodeFacts.Netdev(NET, Reading.of(rail0Mtu), Reading.of("up"), Reading.of(List.of(rail0))),
                new NodeFacts.Netdev(NET2, Reading.of(9000), Reading.of("up"), Reading.of(List.of(rail1)))));
    }

    /** The example spec with ens6 as NET, ens6d1 as NET2 and mlx4_0 as DEV. */
    private static ClusterSpec renamed(ClusterSpec s) {
        List<ClusterSpec.Network> nets = s.networks().stream().map(n -> {
            Map<String, ClusterSpec.Binding> bind = new LinkedHashMap<>();
            n.bind().forEach((node, b) -> bind.put(node, new ClusterSpec.Binding(
                    b.netdev().equals("ens6") ? NET : b.netdev().equals("ens6d1") ? NET2 : b.netdev(),
                    b.rdma().map(r -> new NetInterface.RdmaPortRef(DEV, r.port())), b.address())));
            return new ClusterSpec.Network(n.name(), n.role(), n.linkLayer(), n.rateGbps(), n.mtu(), n.subnet(), n.ipoibMode(),
                    bind, n.subnetManager());
        }).toList();
        return new ClusterSpec(s.cluster(), s.source(), s.nodes(), s.gpus(), nets, s.expect(), s.slurm(), s.sshUser(),
                s.ssh(), s.agent());
    }

    private static String read(String path) {
        try {
            return Files.readString(Path.of(path));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void exposedDropsWhatSingleQuotesHold() {
        assertThat(exposed("ip link set dev " + ShellWord.of(NET) + " up")).isEqualTo("ip link set dev  up");
        assertThat(exposed("ip link set dev " + NET2 + " up")).contains(MARK);
        assertThat(exposed("ip link set dev " + NET + " up")).contains(MARK);
        assertThat(exposed("echo \"$(" + MARK + ")\"")).contains(MARK);
    }
}
