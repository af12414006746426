package dev.railyard.collect;

import dev.railyard.model.NetInterface;
import dev.railyard.model.NetInterface.RdmaPortRef;
import dev.railyard.model.Reading;
import dev.railyard.platform.CommandRunner;
import dev.railyard.platform.HostRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Expected values are the ones prometheus/procfs (net_class_test.go) and node_exporter (e2e output) state. */
class NetCollectorTest {

    /** Part of a real `ip -j address show` (this build machine's loopback and an eth0). */
    static final String IP_JSON = """
            [{"ifindex":1,"ifname":"lo","flags":["LOOPBACK","UP","LOWER_UP"],"mtu":65536,"addr_info":[\
            {"family":"inet","local":"127.0.0.1","prefixlen":8,"scope":"host","label":"lo"},\
            {"family":"inet6","local":"::1","prefixlen":128,"scope":"host"}]},\
            {"ifindex":2,"ifname":"eth0","mtu":1500,"addr_info":[{"family":"inet","local":"10.0.2.15","prefixlen":24}]}]""";

    @TempDir
    Path dir;

    private static NetInterface named(List<NetInterface> all, String name) {
        return all.stream().filter(n -> n.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void procfsEth0MatchesNetClassTestGo() throws Exception {
        HostRoot root = HostRoot.at(SysfsFixtures.unpackTtar("procfs-class-net-eth0.ttar.txt", dir).resolve("fixtures"));
        List<NetInterface> all = new NetCollector().collect(root);
        assertThat(all).extracting(NetInterface::name).containsExactly("eth0");
        NetInterface eth0 = all.getFirst();
        assertThat(eth0.mtu()).isEqualTo(Reading.of(1500));
        assertThat(eth0.speedMbps()).isEqualTo(Reading.of(1000L));
        assertThat(eth0.operState()).isEqualTo(Reading.of("up"));
        assertThat(eth0.carrier()).isEqualTo(Reading.of(true));
        assertThat(eth0.carrierChanges()).isEqualTo(Reading.of(2L));
        assertThat(eth0.mac()).isEqualTo(Reading.of("01:01:01:01:01:01"));
        // device -> ../../../devices/pci0000:00/0000:00:1f.6/, a link whose target the fixture does not contain
        assertThat(eth0.pciAddress()).isEqualTo(Reading.of("0000:00:1f.6"));
        assertThat(eth0.addresses()).isEqualTo(Reading.absent("not captured (no railyard/ip-address.json)"));
        assertThat(eth0.bondMaster()).isInstanceOf(Reading.Absent.class);
        assertThat(eth0.bondSlaves()).isEmpty();
        assertThat(eth0.ipoibMode()).isEqualTo(Reading.absent("not IPoIB"));
        assertThat(eth0.rdmaPorts()).isEmpty();
    }

    @Test
    void nodeExporterBondsAndSymlinkedEth0() throws Exception {
        HostRoot root = HostRoot.at(SysfsFixtures.unpackTtar("node_exporter-class-net.ttar.txt", dir));
        List<NetInterface> all = new NetCollector().collect(root);
        // bonding_masters is a file, not an interface
        assertThat(all).extracting(NetInterface::name).containsExactly("bond0", "dmz", "eth0", "int");

        NetInterface bond0 = named(all, "bond0");
        // node_exporter emits no node_network_speed_bytes for bond0: its speed file says -1
        assertThat(bond0.speedMbps()).isEqualTo(Reading.absent(NetCollector.UNKNOWN_SPEED));
        assertThat(bond0.bondSlaves()).isEmpty(); // node_bonding_slaves{master="bond0"} 0
        assertThat(bond0.mtu()).isEqualTo(Reading.of(1500));
        assertThat(bond0.carrierChanges()).isEqualTo(Reading.of(2L));
        assertThat(named(all, "dmz").bondSlaves()).containsExactly("eth0", "eth4"); // node_bonding_slaves 2
        assertThat(named(all, "int").bondSlaves()).containsExactly("eth5", "eth1");

        // sys/class/net/eth0 is a symlink into sys/devices/pci0000:00/0000:00:03.0/0000:03:00.0/net/eth0/
        NetInterface eth0 = named(all, "eth0");
        assertThat(eth0.speedMbps()).isEqualTo(Reading.of(1000L)); // node_network_speed_bytes 1.25e+08
        assertThat(eth0.mtu()).isEqualTo(Reading.of(1500));
        assertThat(eth0.carrier()).isEqualTo(Reading.of(true));
        assertThat(eth0.carrierChanges()).isEqualTo(Reading.of(2L));
        assertThat(eth0.operState()).isEqualTo(Reading.of("up"));
        assertThat(eth0.mac()).isEqualTo(Reading.of("01:01:01:01:01:01"));
        assertThat(eth0.pciAddress()).isEqualTo(Reading.of("0000:03:00.0"));
        assertThat(Files.isSymbolicLink(dir.resolve("sys/class/net/eth0"))).isTrue();
    }

    @Test
    void telegrafSpeedMinusOneIsUnknown() throws Exception {
        Path net = SysfsFixtures.unpackDump("telegraf-net-testdata-speed.dump.txt", dir.resolve("sys/class/net"));
        assertThat(net.resolve("eth1/speed")).exists();
        List<NetInterface> all = new NetCollector().collect(HostRoot.at(dir));
        assertThat(named(all, "eth0").speedMbps()).isEqualTo(Reading.of(100L));
        assertThat(named(all, "eth1").speedMbps()).isEqualTo(Reading.absent(NetCollector.UNKNOWN_SPEED));
    }

    @Test
    void capturedIpAddressJsonIsRead() throws Exception {
        Files.createDirectories(dir.resolve("sys/class/net/lo"));
        Files.createDirectories(dir.resolve("railyard"));
        Files.writeString(dir.resolve("railyard/ip-address.json"), IP_JSON);
        NetInterface lo = new NetCollector().collect(HostRoot.at(dir)).getFirst();
        assertThat(lo.addresses()).isEqualTo(Reading.of(List.of("127.0.0.1/8", "::1/128")));
    }

    @Test
    void brokenIpJsonIsAFailedReading() {
        assertThat(IpAddressTable.parse("x", "{not json")).isInstanceOf(Reading.Failed.class);
        assertThat(IpAddressTable.parse("x", "{}")).isInstanceOf(Reading.Failed.class);
        assertThat(IpAddressTable.parse("x", IP_JSON).orElse(null).of("eth0")).isEqualTo(Reading.of(List.of("10.0.2.15/24")));
        assertThat(IpAddressTable.parse("x", IP_JSON).orElse(null).of("ib0")).isEqualTo(Reading.of(List.of()));
    }

    @Test
    void liveRootReadsAddressesFromTheKernelAndToleratesEinvalOnDownLinks() {
        HostRoot live = HostRoot.live();
        assumeTrue(live.isDirectory("sys/class/net/lo"), "needs a Linux /sys with loopback");
        List<NetInterface> all = new NetCollector().collect(live);
        NetInterface lo = all.stream().filter(n -> n.name().equals("lo")).findFirst().orElseThrow();
        assertThat(lo.addresses().orElse(List.of())).contains("127.0.0.1/8");
        // a real kernel answers EINVAL to reading carrier (and speed) of a down interface: never Failed, never thrown
        for (NetInterface n : all) {
            if (n.operState().equals(Reading.of("down"))) {
                assertThat(n.carrier()).as(n.name()).isNotInstanceOf(Reading.Failed.class);
                assertThat(n.speedMbps()).as(n.name()).isNotInstanceOf(Reading.Failed.class);
            }
        }
    }

    @Test
    void theLiveTableRoundTripsThroughTheCapturedIpJsonShape() {
        IpAddressTable live = IpAddressTable.live().orElse(null);
        assertThat(live).isNotNull();
        assertThat(IpAddressTable.parse("capture", live.toIpJson()).orElse(null)).isEqualTo(live);
    }

    @Test
    void carrierEinvalOnADownInterfaceIsAbsentElsewhereFailed() {
        Reading<String> einval = Reading.failed("sys/class/net/ifb0/carrier", "Invalid argument");
        assertThat(NetCollector.carrier("p", einval, true)).isInstanceOf(Reading.Absent.class);
        assertThat(NetCollector.carrier("p", einval, false)).isEqualTo(einval.map(x -> true));
        assertThat(NetCollector.carrier("p", Reading.of("0"), false)).isEqualTo(Reading.of(false));
    }

    @Test
    void rdmaPortsFromThePciFunctionAndFromGidNetdevs() throws Exception {
        String pci = "sys/devices/pci0000:00/0000:00:01.0/0000:17:00.0";
        Files.createDirectories(dir.resolve(pci + "/net/ens1np0"));
        Files.createDirectories(dir.resolve(pci + "/infiniband/mlx5_0/ports/1/gids"));
        Files.createDirectories(dir.resolve(pci + "/infiniband/mlx5_0/ports/1/gid_attrs/types"));
        Files.createDirectories(dir.resolve(pci + "/infiniband/mlx5_0/ports/1/gid_attrs/ndevs"));
        Files.createDirectories(dir.resolve(pci + "/driver"));
        Files.writeString(dir.resolve(pci + "/net/ens1np0/dev_port"), "0\n");
        Files.writeString(dir.resolve(pci + "/infiniband/mlx5_0/ports/1/link_layer"), "Ethernet\n");
        Files.writeString(dir.resolve(pci + "/infiniband/mlx5_0/ports/1/gids/3"), "0000:0000:0000:0000:0000:ffff:0a98:000c\n");
        Files.writeString(dir.resolve(pci + "/infiniband/mlx5_0/ports/1/gid_attrs/types/3"), "RoCE v2\n");
        Files.writeString(dir.resolve(pci + "/infiniband/mlx5_0/ports/1/gid_attrs/ndevs/3"), "vlan100\n");
        Files.createSymbolicLink(dir.resolve(pci + "/net/ens1np0/device"), Path.of("../../../0000:17:00.0"));
        Files.createDirectories(dir.resolve("sys/bus/pci/drivers/mlx5_core"));
        Files.delete(dir.resolve(pci + "/driver"));
        Files.createSymbolicLink(dir.resolve(pci + "/driver"), Path.of("../../../../bus/pci/drivers/mlx5_core"));
        Files.createDirectories(dir.resolve("sys/class/net/vlan100"));
        Files.createDirectories(dir.resolve("sys/class/infiniband"));
        Files.createSymbolicLink(dir.resolve("sys/class/net/ens1np0"), Path.of("../../devices/pci0000:00/0000:00:01.0/0000:17:00.0/net/ens1np0"));
        Files.createSymbolicLink(dir.resolve("sys/class/infiniband/mlx5_0"), Path.of("../../devices/pci0000:00/0000:00:01.0/0000:17:00.0/infiniband/mlx5_0"));

        List<NetInterface> all = new NetCollector().collect(HostRoot.at(dir));
        NetInterface ens = named(all, "ens1np0");
        assertThat(ens.rdmaPorts()).containsExactly(new RdmaPortRef("mlx5_0", 1));
        assertThat(ens.driver()).isEqualTo(Reading.of("mlx5_core"));
        assertThat(ens.pciAddress()).isEqualTo(Reading.of("0000:17:00.0"));
        assertThat(named(all, "vlan100").rdmaPorts()).containsExactly(new RdmaPortRef("mlx5_0", 1));
        assertThat(named(all, "vlan100").driver()).isInstanceOf(Reading.Absent.class);
    }

    @Test
    void aRootWithoutNetGivesAnEmptyList() {
        assertThat(new NetCollector().collect(HostRoot.at(dir))).isEmpty();
    }

    @Test
    void ipv6AddressesAreWrittenTheWayIpWritesThem() throws Exception {
        assertThat(IpAddressTable.text(java.net.InetAddress.getByName("0:0:0:0:0:0:0:1"))).isEqualTo("::1");
        assertThat(IpAddressTable.text(java.net.InetAddress.getByName("fe80:0:0:0:fc:ff:fe00:1"))).isEqualTo("fe80::fc:ff:fe00:1");
        assertThat(IpAddressTable.text(java.net.InetAddress.getByName("fd00:0:0:0:0:0:0:2"))).isEqualTo("fd00::2");
        assertThat(IpAddressTable.text(java.net.InetAddress.getByName("2001:db8:0:1:0:0:0:0"))).isEqualTo("2001:db8:0:1::");
        assertThat(IpAddressTable.text(java.net.InetAddress.getByName("10.0.0.1"))).isEqualTo("10.0.0.1");
    }
}
