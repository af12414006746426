package dev.railyard.check;

import dev.railyard.model.ClusterSpec;
import dev.railyard.model.Finding;
import dev.railyard.model.NetInterface;
import dev.railyard.model.NodeInventory;
import dev.railyard.model.PcieTopology;
import dev.railyard.model.RdmaPort;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static dev.railyard.check.Inventories.*;
import static org.assertj.core.api.Assertions.assertThat;

/** Port, rate, GID, netdev, LAG, counters, carrier and topology checks on S1-shaped inventories. */
class FabricChecksTest {

    private static CheckInput withSpec(NodeInventory inv) {
        return new CheckInput(inv, Optional.of(s1Spec()), "gpuserver1");
    }

    @Test
    void healthyS1PassesEveryFabricCheckWithAndWithoutSpec() {
        for (CheckInput in : List.of(CheckInput.withoutSpec(s1()), withSpec(s1()))) {
            List<Finding> out = CheckRunner.nodeChecks().run(in);
            assertThat(out).filteredOn(f -> f.severity().atLeast(Severity.UNKNOWN)).as("%s", out).isEmpty();
        }
    }

    @Test
    void infinibandPortInInitWithSmLid0FailsWithOpensm() {
        RdmaPort init = port("mlx4_0", 1, 2, "INIT", 5, "LinkUp", "40 Gb/sec (4X QDR)", 40, "4X", "InfiniBand", 0,
                List.of(), Map.of());
        List<Finding> out = new RdmaPortCheck().run(CheckInput.withoutSpec(withPort(s1(), init)));
        Finding state = Found.one(out, "rdma.port.state", "mlx4_0:1");
        assertThat(state.severity()).isEqualTo(Severity.FAIL);
        assertThat(state.observed()).startsWith("2: INIT");
        assertThat(state.remediation()).contains("systemctl enable --now opensm");
        Finding sm = Found.one(out, "rdma.ib.sm", "mlx4_0:1");
        assertThat(sm.severity()).isEqualTo(Severity.FAIL);
        assertThat(sm.observed()).isEqualTo("sm_lid 0");
    }

    @Test
    void pollingPortWarnsWithoutSpecAndFailsWhenTheSpecBindsIt() {
        RdmaPort polling = port("mlx4_0", 2, 1, "DOWN", 2, "Polling", "10 Gb/sec (4X)", 10, "4X", "Ethernet", 0,
                List.of(), Map.of());
        NodeInventory inv = withPort(s1(), polling);
        assertThat(Found.one(new RdmaPortCheck().run(CheckInput.withoutSpec(inv)), "rdma.port.phys", "mlx4_0:2").severity())
                .isEqualTo(Severity.WARN);
        Finding bound = Found.one(new RdmaPortCheck().run(withSpec(inv)), "rdma.port.phys", "mlx4_0:2");
        assertThat(bound.severity()).isEqualTo(Severity.FAIL);
        assertThat(bound.remediation()).contains("no cable or no peer");
        assertThat(Found.one(new RdmaPortCheck().run(withSpec(inv)), "rdma.port.state", "mlx4_0:2").severity())
                .isEqualTo(Severity.FAIL);
    }

    @Test
    void rateBelowSpecFailsAndWithoutSpecLowerThanTheSiblingPortWarns() {
        RdmaPort slow = port("mlx4_0", 2, 4, "ACTIVE", 5, "LinkUp", "10 Gb/sec (1X QDR)", 10, "1X", "Ethernet", 0,
                seed000Gids(), Map.of());
        NodeInventory inv = withPort(s1(), slow);
        Finding spec = Found.one(new RdmaRateCheck().run(withSpec(inv)), "rdma.port.rate", "mlx4_0:2");
        assertThat(spec.severity()).isEqualTo(Severity.FAIL);
        assertThat(spec.expected()).isEqualTo("40 Gb/sec (spec)");
        assertThat(spec.remediation()).startsWith("# replace the QSFP+ cable/DAC").endsWith("\ncat /sys/class/infiniband/mlx4_0/ports/2/rate");
        Finding noSpec = Found.one(new RdmaRateCheck().run(CheckInput.withoutSpec(inv)), "rdma.port.rate", "mlx4_0:2");
        assertThat(noSpec.severity()).isEqualTo(Severity.WARN);
        assertThat(noSpec.expected()).isEqualTo("40 Gb/sec (4X QDR) like mlx4_0:1");
        assertThat(Found.one(new RdmaRateCheck().run(CheckInput.withoutSpec(s1())), "rdma.port.rate", "mlx4_0:2").severity())
                .isEqualTo(Severity.INFO);
    }

    @Test
    void roceGidReportsIndex2ForSeed000AndFailsWhenOnlyV1Exists() {
        Finding f = Found.one(new RoceGidCheck().run(CheckInput.withoutSpec(s1())), "rdma.roce.gid", "mlx4_0:2");
        assertThat(f.severity()).isEqualTo(Severity.PASS);
        assertThat(f.observed()).isEqualTo("GID index 2 = RoCE v2 0000:0000:0000:0000:0000:ffff:0a00:0001");
        assertThat(f.remediation()).isEqualTo("ib_write_bw --ib-dev=mlx4_0 --ib-port=2 --gid-index=2");
        RdmaPort v1only = roceActive("mlx4_0", 2, List.of(
                gid(3, "0000:0000:0000:0000:0000:ffff:0a00:0001", RdmaPort.GidType.ROCE_V1, "ens6d1")));
        Finding v1 = Found.one(new RoceGidCheck().run(CheckInput.withoutSpec(withPort(s1(), v1only))), "rdma.roce.gid", "mlx4_0:2");
        assertThat(v1.severity()).isEqualTo(Severity.FAIL);
        assertThat(v1.observed()).isEqualTo("only RoCE v1 GID index 3 for 10.0.0.1");
    }

    @Test
    void roceGidWithSpecAddressMissingFromTheTableFailsWithIpAddrAdd() {
        RdmaPort noIpGid = roceActive("mlx4_0", 2, seed000Gids().subList(0, 2));
        Finding f = Found.one(new RoceGidCheck().run(withSpec(withPort(s1(), noIpGid))), "rdma.roce.gid", "mlx4_0:2");
        assertThat(f.severity()).isEqualTo(Severity.FAIL);
        assertThat(f.remediation()).startsWith("ip addr add 10.0.0.1/24 dev ens6d1");
    }

    private static NodeInventory ens6d1(int mtu, String oper, List<String> addrs) {
        NodeInventory i = s1();
        List<NetInterface> nets = i.interfaces().stream().map(n -> n.name().equals("ens6d1")
                ? netdev("ens6d1", mtu, oper, addrs, "0000:04:00.0", 2, new NetInterface.RdmaPortRef("mlx4_0", 2)) : n).toList();
        return withInterfaces(i, nets);
    }

    @Test
    void mtu1500WarnsWithoutSpecAndFailsWithSpecWithIpLinkAndNetplan() {
        NodeInventory inv = ens6d1(1500, "up", List.of("10.0.0.1/24"));
        assertThat(Found.one(new FabricNetdevCheck().run(CheckInput.withoutSpec(inv)), "rdma.netdev.mtu", "ens6d1").severity())
                .isEqualTo(Severity.WARN);
        Finding f = Found.one(new FabricNetdevCheck().run(withSpec(inv)), "rdma.netdev.mtu", "ens6d1");
        assertThat(f.severity()).isEqualTo(Severity.FAIL);
        assertThat(f.remediation()).startsWith("ip link set dev ens6d1 mtu 9000").contains("netplan");
    }

    /**
     * A data network the spec binds to a plain Ethernet netdev, with no RDMA port and no MTU: 1500 is no finding to
     * fix (jumbo frames are RoCE's need); once the spec asks for 9000 it is judged as on any network.
     */
    @Test
    void aTcpOnlyNetworkIsNotToldToUseJumboFramesForRoce() {
        NodeInventory inv = withInterfaces(s1(), List.of(netdev("eno2", 1500, "up", List.of("10.9.0.1/24"), "0000:05:00.0", 0)));
        for (Optional<Integer> mtu : List.of(Optional.<Integer>empty(), Optional.of(9000))) {
            ClusterSpec.Network data = new ClusterSpec.Network("data", ClusterSpec.Role.COMPUTE,
                    Optional.of(ClusterSpec.LinkLayer.ETHERNET), Optional.of(10.0), mtu, Optional.of("10.9.0.0/24"),
                    Optional.empty(), Map.of("gpuserver1", new ClusterSpec.Binding("eno2", Optional.empty(),
                    Optional.of("10.9.0.1"))));
            ClusterSpec spec = new ClusterSpec("tcp", "test", s1Spec().nodes(), Optional.empty(), List.of(data),
                    ClusterSpec.Expect.defaults());
            assertThat(data.carriesRdma()).isFalse();
            Finding f = Found.one(new FabricNetdevCheck().run(new CheckInput(inv, Optional.of(spec), "gpuserver1")),
                    "rdma.netdev.mtu", "eno2");
            if (mtu.isEmpty()) {
                assertThat(f.severity()).isEqualTo(Severity.INFO);
                assertThat(f.expected() + f.remediation()).doesNotContain("RoCE").doesNotContain("jumbo frames for");
            } else {
                assertThat(f.severity()).isEqualTo(Severity.FAIL);
                assertThat(f.expected()).isEqualTo(">= 9000 (spec)");
            }
        }
    }

    @Test
    void specAddressMissingFailsWithTheCidrFromTheSubnet() {
        Finding f = Found.one(new FabricNetdevCheck().run(withSpec(ens6d1(9000, "up", List.of()))), "rdma.netdev.address", "ens6d1");
        assertThat(f.severity()).isEqualTo(Severity.FAIL);
        assertThat(f.remediation()).startsWith("ip addr add 10.0.0.1/24 dev ens6d1");
        Finding down = Found.one(new FabricNetdevCheck().run(withSpec(ens6d1(9000, "down", List.of()))), "rdma.netdev.address", "ens6d1");
        assertThat(down.remediation()).startsWith("ip link set dev ens6d1 up\n# ");
    }

    @Test
    void bondMemberCarryingRdmaWarns() {
        NetInterface bonded = new NetInterface("ens6d1", Reading.of(9000), Reading.of(40000L), Reading.of("up"), Reading.of(true),
                Reading.of(2L), NONE, NONE, Reading.of("0000:04:00.0"), Reading.of(List.of()), Reading.of("bond0"), List.of(),
                NONE, List.of(new NetInterface.RdmaPortRef("mlx4_0", 2)));
        Finding f = Found.one(new RdmaLagCheck().run(CheckInput.withoutSpec(withInterfaces(s1(), List.of(bonded)))), "rdma.lag", "ens6d1");
        assertThat(f.severity()).isEqualTo(Severity.WARN);
        assertThat(f.observed()).isEqualTo("member of bond bond0, RDMA [mlx4_0:2]");
    }

    @Test
    void errorCountersWarnAndMissingCountersAreUnknown() {
        RdmaPort errors = port("mlx4_0", 2, 4, "ACTIVE", 5, "LinkUp", "40 Gb/sec (4X QDR)", 40, "4X", "Ethernet", 0,
                seed000Gids(), Map.of("symbol_error", 0L, "link_downed", 255L, "excessive_buffer_overrun_errors", 15L));
        List<Finding> out = new RdmaCountersCheck().run(CheckInput.withoutSpec(withPort(s1(), errors)));
        Finding f = Found.one(out, "rdma.counters", "mlx4_0:2");
        assertThat(f.severity()).isEqualTo(Severity.WARN);
        assertThat(f.observed()).startsWith("link_downed=255, excessive_buffer_overrun_errors=15; could not read 7: "
                + "link_error_recovery (no counter link_error_recovery), port_rcv_errors");
        RdmaPort noPma = port("mlx4_0", 1, 4, "ACTIVE", 5, "LinkUp", "10 Gb/sec (4X)", 10, "4X", "Ethernet", 0, List.of(), Map.of());
        assertThat(Found.one(new RdmaCountersCheck().run(CheckInput.withoutSpec(withPort(s1(), noPma))), "rdma.counters", "mlx4_0:1")
                .severity()).isEqualTo(Severity.UNKNOWN);
    }

    @Test
    void carrierFlapsWarnOnPhysicalNicsOnly() {
        NetInterface flappy = netdev("ens6", 9000, "up", List.of("10.0.1.1/24"), "0000:04:00.0", 57);
        NetInterface veth = netdev("veth0", 1500, "up", List.of(), null, 500);
        List<Finding> out = new CarrierCheck().run(CheckInput.withoutSpec(withInterfaces(s1(), List.of(flappy, veth))));
        assertThat(out).hasSize(1);
        assertThat(out.getFirst().severity()).isEqualTo(Severity.WARN);
        assertThat(out.getFirst().observed()).isEqualTo("57 carrier changes");
    }

    @Test
    void gpuAcrossTheSocketFromItsNicWarns() {
        PcieTopology sys = new PcieTopology(s1().topology().endpoints(), List.of(
                new PcieTopology.Pair("GPU0", "mlx4_0", PcieTopology.Affinity.PHB),
                new PcieTopology.Pair("GPU1", "mlx4_0", PcieTopology.Affinity.SYS)));
        List<Finding> out = new GpuNicAffinityCheck().run(CheckInput.withoutSpec(withTopology(s1(), sys)));
        assertThat(Found.one(out, "topo.gpu-nic.affinity", "GPU0 (0000:3b:00.0)").severity()).isEqualTo(Severity.PASS);
        Finding f = Found.one(out, "topo.gpu-nic.affinity", "GPU1 (0000:d8:00.0)");
        assertThat(f.severity()).isEqualTo(Severity.WARN);
        assertThat(f.observed()).isEqualTo("mlx4_0 SYS");
    }

    @Test
    void fewerRailsThanGpusWarns() {
        RdmaPort down = port("mlx4_0", 1, 1, "DOWN", 3, "Disabled", "40 Gb/sec (4X QDR)", 40, "4X", "Ethernet", 0, List.of(), Map.of());
        Finding f = Found.one(new RailCountCheck().run(CheckInput.withoutSpec(withPort(s1(), down))), "topo.rail", "gpuserver1");
        assertThat(f.severity()).isEqualTo(Severity.WARN);
        assertThat(f.observed()).isEqualTo("2 GPUs, 1 active RDMA ports [mlx4_0:2]");
        assertThat(Found.one(new RailCountCheck().run(withSpec(s1())), "topo.rail", "gpuserver1").severity()).isEqualTo(Severity.PASS);
    }
}
