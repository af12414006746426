package dev.railyard.bench.perftest;

import dev.railyard.collect.InfinibandCollector;
import dev.railyard.model.GpuInventory;
import dev.railyard.model.HostInfo;
import dev.railyard.model.NetInterface;
import dev.railyard.model.NodeInventory;
import dev.railyard.model.PciDevice;
import dev.railyard.model.PcieLink;
import dev.railyard.model.PcieTopology;
import dev.railyard.model.RailyardException;
import dev.railyard.model.RdmaDevice;
import dev.railyard.model.RdmaPort;
import dev.railyard.model.Reading;
import dev.railyard.platform.CommandRunner;
import dev.railyard.platform.HostRoot;
import org.junit.jupiter.api.Test;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

public class PortChoiceTest {

    // --- the V100 homelab: gpuserver1, mlx4_0 port 1 on ens6 (10.0.1.1), port 2 on ens6d1 (10.0.0.1), NUMA node 0 ---

    static RdmaPort.Gid gid(int i, String g, RdmaPort.GidType t, String netdev) {
        return new RdmaPort.Gid(i, g, Reading.of(t), Reading.of(netdev));
    }

    static RdmaPort roce(int port, int state, List<RdmaPort.Gid> gids) {
        return new RdmaPort("mlx4_0", port, Reading.of(new RdmaPort.PortState(state, state == 4 ? "ACTIVE" : "DOWN")),
                Reading.of(new RdmaPort.PortState(5, "LinkUp")),
                Reading.of(new RdmaPort.LinkRate(40, "4X", "40 Gb/sec (4X QDR)")), Reading.of("Ethernet"),
                Reading.of(0), Reading.of(0), gids, Map.of(), Map.of());
    }

    /** The homelab's show_gids for mlx4_0: link-local v1/v2 at 0/1, the IPv4 GIDs v2 at 2 and v1 at 3, per port. */
    static List<RdmaPort.Gid> gids(String netdev, String ipv4Tail) {
        return List.of(
                gid(0, "fe80:0000:0000:0000:268a:07ff:fe52:aab1", RdmaPort.GidType.ROCE_V1, netdev),
                gid(1, "fe80:0000:0000:0000:268a:07ff:fe52:aab1", RdmaPort.GidType.ROCE_V2, netdev),
                gid(2, "0000:0000:0000:0000:0000:ffff:" + ipv4Tail, RdmaPort.GidType.ROCE_V2, netdev),
                gid(3, "0000:0000:0000:0000:0000:ffff:" + ipv4Tail, RdmaPort.GidType.ROCE_V1, netdev));
    }

    static NetInterface netdev(String name, List<String> addrs, RdmaPort port) {
        return new NetInterface(name, Reading.of(9000), Reading.of(40000L), Reading.of("up"), Reading.of(true),
                Reading.of(0L), Reading.of("24:8a:07:52:aa:b1"), Reading.of("mlx4_en"), Reading.of("0000:04:00.0"),
                Reading.of(addrs), Reading.absent("no bond"), List.of(), Reading.absent("not IPoIB"),
                List.of(new NetInterface.RdmaPortRef(port.device(), port.port())));
    }

    static NodeInventory node(List<RdmaDevice> rdma, List<NetInterface> nets, List<PciDevice> pci) {
        HostInfo host = new HostInfo(Reading.absent("x"), Reading.absent("x"), Reading.absent("x"), Reading.absent("x"),
                Reading.absent("x"), Reading.absent("x"), Reading.absent("x"), List.of());
        return new NodeInventory("gpuserver1", Instant.parse("2025-01-01T00:00:00Z"), "/", host, pci,
                new GpuInventory(Reading.absent("x"), List.of()), rdma, nets, new PcieTopology(List.of(), List.of()),
                Reading.absent("x"));
    }

    public static NodeInventory seed000(int port2State) {
        RdmaPort p1 = roce(1, 4, gids("ens6", "0a00:0101"));
        RdmaPort p2 = roce(2, port2State, gids("ens6d1", "0a00:0001"));
        RdmaDevice mlx4 = new RdmaDevice("mlx4_0", Reading.of("2.42.5000"), Reading.absent("x"), Reading.absent("x"),
                Reading.of("MT4103"), Reading.of("0000:04:00.0"), List.of(p1, p2));
        PciDevice pci = new PciDevice("0000:04:00.0", PciDevice.VENDOR_MELLANOX, 0x1007, 0x020000,
                Reading.of("mlx4_core"), Reading.of(0), Reading.of(new PcieLink(3, 3, 8, 8)), List.of("pci0000:00"));
        return node(List.of(mlx4), List.of(netdev("ens6", List.of("10.0.1.1/24", "fe80::1/64"), p1),
                netdev("ens6d1", List.of("10.0.0.1/24"), p2)), List.of(pci));
    }

    static PortChoice.Request peer(String address) {
        return new PortChoice.Request(Optional.empty(), OptionalInt.empty(), OptionalInt.empty(), Optional.empty(),
                Optional.of(address));
    }

    @Test
    void seed000ClientTo10002PicksMlx4Port2AndGidIndex2() {
        PortChoice c = PortChoice.choose(seed000(4), peer("10.0.0.2"));
        assertThat(c.port().ref()).isEqualTo("mlx4_0:2");
        assertThat(c.gidIndex()).hasValue(2);
        assertThat(c.numaNode()).hasValue(0);
        assertThat(c.netdev()).map(NetInterface::name).hasValue("ens6d1");
        assertThat(c.ipv4Address()).hasValue("10.0.0.1");
        assertThat(c.reason()).isEqualTo("the ACTIVE port on 10.0.0.2's subnet");
        PerftestPair pair = new PerftestPair(PerftestPair.Test.WRITE_BW, PerftestPair.Side.CLIENT, c,
                Optional.of("10.0.0.2"), false, false, OptionalLong.empty(), OptionalInt.empty(), false);
        assertThat(new PerftestRunner(CommandRunner.system(), Optional.empty()).argv(pair.plan(Duration.ofSeconds(5))))
                .containsExactly("ib_write_bw", "--ib-dev=mlx4_0", "--ib-port=2", "--gid-index=2", "10.0.0.2");
    }

    @Test
    void seed001SecondRailTo10012PicksPort1() {
        PortChoice c = PortChoice.choose(seed000(4), peer("10.0.1.2"));
        assertThat(c.port().ref()).isEqualTo("mlx4_0:1");
        assertThat(c.gidIndex()).hasValue(2);
    }

    @Test
    void serverWithTwoActivePortsMustBeTold() {
        assertThatThrownBy(() -> PortChoice.choose(seed000(4), PortChoice.Request.none()))
                .isInstanceOfSatisfying(RailyardException.Usage.class, e -> {
                    assertThat(e.getMessage()).contains("mlx4_0:1 ACTIVE ens6 10.0.1.1/24")
                            .contains("mlx4_0:2 ACTIVE ens6d1 10.0.0.1/24");
                    assertThat(e.hint()).contains("--netdev");
                });
        PortChoice byNetdev = PortChoice.choose(seed000(4), new PortChoice.Request(Optional.empty(),
                OptionalInt.empty(), OptionalInt.empty(), Optional.of("ens6d1"), Optional.empty()));
        assertThat(byNetdev.port().port()).isEqualTo(2);
        assertThat(byNetdev.gidIndex()).hasValue(2);
        // with port 2 down, port 1 is the only ACTIVE one
        PortChoice only = PortChoice.choose(seed000(1), PortChoice.Request.none());
        assertThat(only.port().ref()).isEqualTo("mlx4_0:1");
        assertThat(only.reason()).isEqualTo("the only ACTIVE port");
    }

    @Test
    void explicitFlagsWinAndAnUnknownDeviceListsThePorts() {
        PortChoice c = PortChoice.choose(seed000(1), new PortChoice.Request(Optional.of("mlx4_0"), OptionalInt.of(2),
                OptionalInt.of(3), Optional.empty(), Optional.empty()));
        assertThat(c.port().ref()).isEqualTo("mlx4_0:2"); // a Down port as given: perftest will say so
        assertThat(c.gidIndex()).hasValue(3);
        assertThatThrownBy(() -> PortChoice.choose(seed000(4), new PortChoice.Request(Optional.of("mlx5_0"),
                OptionalInt.empty(), OptionalInt.empty(), Optional.empty(), Optional.empty())))
                .isInstanceOf(RailyardException.Usage.class).hasMessageContaining("mlx5_0:*");
    }

    @Test
    void theGidOfTheNetdevsAddressWinsOverTheFirstIpv4Gid() {
        // index 2 carries another address (a VLAN's); the netdev's own 10.0.0.1 is at index 5
        RdmaPort p = roce(2, 4, List.of(
                gid(2, "0000:0000:0000:0000:0000:ffff:c0a8:0101", RdmaPort.GidType.ROCE_V2, "ens6d1.100"),
                gid(4, "0000:0000:0000:0000:0000:ffff:0a00:0001", RdmaPort.GidType.ROCE_V1, "ens6d1"),
                gid(5, "0000:0000:0000:0000:0000:ffff:0a00:0001", RdmaPort.GidType.ROCE_V2, "ens6d1")));
        NetInterface n = netdev("ens6d1", List.of("10.0.0.1/24"), p);
        assertThat(PortChoice.roceGid(p, Optional.of(n), Optional.empty())).hasValue(5);
        assertThat(PortChoice.roceGid(p, Optional.empty(), Optional.empty())).hasValue(2);
        assertThat(PortChoice.mappedTail(0x0a000001)).isEqualTo("0a00:0001");
    }

    @Test
    void noRdmaAtAllIsAMissingPrerequisite() {
        assertThatThrownBy(() -> PortChoice.choose(node(List.of(), List.of(), List.of()), PortChoice.Request.none()))
                .isInstanceOfSatisfying(RailyardException.MissingPrerequisite.class,
                        e -> assertThat(e.hint()).contains("rdma-core"));
    }

    /** The real gpud H100 tree: eight NDR InfiniBand ports, all ACTIVE, and a BlueField-3 RoCE bond. */
    @Test
    void realH100TreeInfinibandNeedsNoGidAndEightActivePortsNeedAName() throws URISyntaxException {
        Path tree = Path.of(getClass().getClassLoader().getResource("sysfs/gpud-h100").toURI());
        List<RdmaDevice> rdma = new InfinibandCollector().collect(HostRoot.at(tree));
        NodeInventory h100 = node(rdma, List.of(), List.of());
        assertThatThrownBy(() -> PortChoice.choose(h100, PortChoice.Request.none()))
                .isInstanceOf(RailyardException.Usage.class).hasMessageContaining("mlx5_0:1 ACTIVE, mlx5_1:1 ACTIVE");
        PortChoice mlx54 = PortChoice.choose(h100, new PortChoice.Request(Optional.of("mlx5_4"), OptionalInt.empty(),
                OptionalInt.empty(), Optional.empty(), Optional.empty()));
        assertThat(mlx54.port().ref()).isEqualTo("mlx5_4:1");
        assertThat(mlx54.gidIndex()).isEmpty();
        assertThat(mlx54.port().rate().optional()).map(RdmaPort.LinkRate::gbps).hasValue(400.0);
        // the bond is RoCE, and the capture has no GID table: no index can be chosen, and the user is told why
        assertThatThrownBy(() -> PortChoice.choose(h100, new PortChoice.Request(Optional.of("mlx5_bond_0"),
                OptionalInt.empty(), OptionalInt.empty(), Optional.empty(), Optional.empty())))
                .isInstanceOf(RailyardException.Usage.class).hasMessageContaining("mlx5_bond_0:1 has no RoCE v2 GID");
    }
}
