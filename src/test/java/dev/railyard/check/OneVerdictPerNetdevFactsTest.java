package dev.railyard.check;

import dev.railyard.diagnose.Diagnoser;
import dev.railyard.diagnose.Diagnosis;
import dev.railyard.model.CheckId;
import dev.railyard.model.Finding;
import dev.railyard.model.NetInterface;
import dev.railyard.model.NodeFacts;
import dev.railyard.model.NodeInventory;
import dev.railyard.model.RdmaPort;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A fabric netdev's MTU through every path that judges it: `check` with no spec (jumbo frames for RoCE), `validate`
 * (the node check with the spec's MTU, and cluster.mtu across the nodes' facts) and `diagnose` of ibv_devinfo, whose
 * RoCE active_mtu is 1024 for a netdev at 1500. One severity per reference, one command that sets the MTU.
 */
class OneVerdictPerNetdevFactsTest {

    private static final String NODE = "gpuserver1";
    private static final String NETDEV = "ens6d1";

    /** ens6d1's MTU, the active_mtu ibv_devinfo shows for it, the severity without a spec and with the spec's 9000. */
    @ParameterizedTest(name = "MTU {0}")
    @CsvSource({"1500, 1024, WARN, FAIL", "9000, 4096, PASS, PASS"})
    void aFabricNetdevsMtuIsJudgedAlike(int mtu, int activeMtu, Severity unbound, Severity bound) {
        NodeInventory inv = withMtu(mtu);
        Finding check = one(new FabricNetdevCheck().run(new CheckInput(inv, Optional.empty(), NODE)),
                CheckId.RDMA_NETDEV_MTU, NETDEV);
        Finding validate = one(new FabricNetdevCheck().run(new CheckInput(inv, Optional.of(Inventories.s1Spec()), NODE)),
                CheckId.RDMA_NETDEV_MTU, NETDEV);
        List<Finding> cluster = new ClusterMtuCheck().run(new ClusterInput(Inventories.s1Spec(),
                facts(mtu), Map.of()));
        Optional<Finding> pasted = Diagnoser.standard().diagnose(ibvDevinfo(activeMtu)).diagnoses().stream()
                .map(Diagnosis::finding).filter(f -> f.id().equals(CheckId.RDMA_NETDEV_MTU.id())).findFirst();

        assertThat(check.severity()).isEqualTo(unbound);
        assertThat(pasted.map(Finding::severity).orElse(Severity.PASS)).isEqualTo(unbound);
        assertThat(validate.severity()).isEqualTo(bound);
        Optional<Finding> end = cluster.stream().filter(f -> f.subject().equals("rail0 " + NODE + " " + NETDEV)).findFirst();
        assertThat(end.map(Finding::severity).orElse(Severity.PASS)).isEqualTo(bound);
        if (bound != Severity.PASS) {
            // the same commands set the MTU; cluster.mtu says first which node to run them on
            assertThat(end.orElseThrow().remediation()).isEqualTo("# on " + NODE + ":\n" + validate.remediation());
            assertThat(check.remediation()).isEqualTo(validate.remediation());
            assertThat(pasted.orElseThrow().remediation()).contains("mtu 9000");
        }
    }

    /**
     * mlx4_0:2's GID table for ens6d1's 10.0.0.1 as sysfs holds it and as show_gids prints it: a RoCE v2 GID (PASS,
     * naming the index), only RoCE v1 (FAIL), no IPv4 address at all (WARN).
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"v2, PASS", "v1, FAIL", "none, WARN"})
    void aRoceGidTableIsJudgedAlike(String have, Severity want) {
        List<RdmaPort.Gid> gids = new java.util.ArrayList<>(List.of(
                Inventories.gid(0, "fe80:0000:0000:0000:268a:07ff:fe52:aab1", RdmaPort.GidType.ROCE_V1, NETDEV)));
        if (!have.equals("none")) {
            gids.add(Inventories.gid(2, "0000:0000:0000:0000:0000:ffff:0a00:0001", RdmaPort.GidType.ROCE_V1, NETDEV));
        }
        if (have.equals("v2")) {
            gids.add(Inventories.gid(3, "0000:0000:0000:0000:0000:ffff:0a00:0001", RdmaPort.GidType.ROCE_V2, NETDEV));
        }
        NodeInventory s1 = Inventories.s1();
        RdmaPort p = s1.rdmaDevices().getFirst().ports().get(1);
        RdmaPort withGids = new RdmaPort(p.device(), p.port(), p.state(), p.physState(), p.rate(), p.linkLayer(), p.lid(),
                p.smLid(), gids, p.counters(), p.hwCounters());
        List<String> addrs = have.equals("none") ? List.of() : List.of("10.0.0.1/24");
        List<NetInterface> nets = s1.interfaces().stream().map(n -> !n.name().equals(NETDEV) ? n
                : new NetInterface(n.name(), n.mtu(), n.speedMbps(), n.operState(), n.carrier(), n.carrierChanges(),
                n.mac(), n.driver(), n.pciAddress(), Reading.of(addrs), n.bondMaster(), n.bondSlaves(), n.ipoibMode(),
                n.rdmaPorts())).toList();
        NodeInventory inv = Inventories.withInterfaces(Inventories.withPort(s1, withGids), nets);
        Finding check = one(new RoceGidCheck().run(new CheckInput(inv, Optional.empty(), NODE)), CheckId.RDMA_ROCE_GID,
                "mlx4_0:2");
        StringBuilder paste = new StringBuilder("DEV\tPORT\tINDEX\tGID\t\t\t\t\tIPv4  \t\tVER\tDEV\n"
                + "---\t----\t-----\t---\t\t\t\t\t------------  \t---\t---\n");
        for (RdmaPort.Gid g : gids) {
            boolean v4 = g.gid().contains("ffff");
            paste.append("mlx4_0\t2\t").append(g.index()).append('\t').append(g.gid()).append('\t')
                    .append(v4 ? "10.0.0.1  " : "          ").append("\t")
                    .append(g.type().optional().orElseThrow() == RdmaPort.GidType.ROCE_V2 ? "v2" : "v1").append('\t')
                    .append(NETDEV).append('\n');
        }
        paste.append("n_gids_found=").append(gids.size()).append('\n');
        Finding pasted = one(Diagnoser.standard().diagnose(paste.toString()).diagnoses().stream()
                .map(Diagnosis::finding).toList(), CheckId.RDMA_ROCE_GID, "mlx4_0:2");

        assertThat(List.of(check, pasted)).extracting(Finding::severity).containsOnly(want);
        assertThat(pasted.remediation()).isEqualTo(check.remediation());
    }

    private static NodeInventory withMtu(int mtu) {
        NodeInventory s1 = Inventories.s1();
        List<NetInterface> nets = s1.interfaces().stream().map(n -> !n.name().equals(NETDEV) ? n
                : new NetInterface(n.name(), Reading.of(mtu), n.speedMbps(), n.operState(), n.carrier(),
                n.carrierChanges(), n.mac(), n.driver(), n.pciAddress(), n.addresses(), n.bondMaster(), n.bondSlaves(),
                n.ipoibMode(), n.rdmaPorts())).toList();
        return Inventories.withInterfaces(s1, nets);
    }

    /** Both nodes' facts for rail0: gpuserver1's ens6d1 at {@code mtu}, gpuserver2's at 9000. */
    private static Map<String, NodeFacts> facts(int mtu) {
        Map<String, NodeFacts> m = new LinkedHashMap<>();
        for (String node : List.of("gpuserver1", "gpuserver2")) {
            int have = node.equals(NODE) ? mtu : 9000;
            m.put(node, new NodeFacts(node, node, Reading.of("535.183.01"), Reading.of("12.2"), Reading.of("2.18.5"),
                    Map.of("mlx4_0", Reading.of("2.42.5000")), List.of(new NodeFacts.Netdev(NETDEV, Reading.of(have),
                    Reading.of("up"), Reading.of(List.of("10.0.0.1/24"))))));
        }
        return m;
    }

    private static String ibvDevinfo(int activeMtu) {
        int code = activeMtu == 1024 ? 3 : 5;
        return "hca_id:\tmlx4_0\n\ttransport:\t\t\tInfiniBand (0)\n\tfw_ver:\t\t\t\t2.42.5000\n"
                + "\t\tport:\t2\n\t\t\tstate:\t\t\tPORT_ACTIVE (4)\n"
                + "\t\t\tmax_mtu:\t\t4096 (5)\n\t\t\tactive_mtu:\t\t" + activeMtu + " (" + code + ")\n"
                + "\t\t\tsm_lid:\t\t\t0\n\t\t\tport_lid:\t\t0\n\t\t\tport_lmc:\t\t0x00\n\t\t\tlink_layer:\t\tEthernet\n";
    }

    private static Finding one(List<Finding> findings, CheckId id, String subject) {
        return findings.stream().filter(f -> f.id().equals(id.id()) && f.subject().equals(subject)).findFirst()
                .orElseThrow(() -> new AssertionError(id + " " + subject + " not among " + findings));
    }
}
