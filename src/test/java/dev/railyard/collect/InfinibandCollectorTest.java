package dev.railyard.collect;

import dev.railyard.model.RdmaDevice;
import dev.railyard.model.RdmaPort;
import dev.railyard.model.RdmaPort.GidType;
import dev.railyard.model.RdmaPort.LinkRate;
import dev.railyard.model.RdmaPort.PortState;
import dev.railyard.model.Reading;
import dev.railyard.platform.HostRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Expected values are the ones prometheus/procfs, node_exporter and leptonai/gpud state for the same trees. */
class InfinibandCollectorTest {

    @TempDir
    Path dir;

    private final InfinibandCollector collector = new InfinibandCollector();

    private static RdmaDevice device(List<RdmaDevice> all, String name) {
        return all.stream().filter(d -> d.name().equals(name)).findFirst().orElseThrow();
    }

    private static RdmaPort port(RdmaDevice d, int n) {
        return d.ports().stream().filter(p -> p.port() == n).findFirst().orElseThrow();
    }

    @Test
    void procfsFixtureMatchesClassInfinibandTestGo() throws Exception {
        HostRoot root = HostRoot.at(SysfsFixtures.unpackTtar("procfs-class-infiniband.ttar.txt", dir).resolve("fixtures"));
        List<RdmaDevice> all = collector.collect(root);
        assertThat(all).extracting(RdmaDevice::name).containsExactly("hfi1_0", "mlx4_0", "mlx5_0");

        RdmaDevice hfi = device(all, "hfi1_0");
        assertThat(hfi.boardId()).isEqualTo(Reading.of("HPE 100Gb 1-port OP101 QSFP28 x16 PCIe Gen3 with Intel Omni-Path Adapter"));
        assertThat(hfi.firmwareVersion()).isEqualTo(Reading.of("1.27.0"));
        assertThat(hfi.hcaType()).isInstanceOf(Reading.Absent.class);
        assertThat(hfi.pciAddress()).isInstanceOf(Reading.Absent.class);
        RdmaPort h1 = port(hfi, 1);
        assertThat(h1.state()).isEqualTo(Reading.of(new PortState(4, "ACTIVE")));
        assertThat(h1.physState()).isEqualTo(Reading.of(new PortState(5, "LinkUp")));
        assertThat(h1.rate().orElse(null).gbps()).isEqualTo(100.0); // procfs: 12500000000 B/s
        assertThat(h1.rcvDataBytes()).isEqualTo(Reading.of(1380366808104L));
        assertThat(h1.xmitDataBytes()).isEqualTo(Reading.of(1094233306172L));
        assertThat(h1.counter("port_rcv_packets")).isEqualTo(Reading.of(638036947L));
        assertThat(h1.counter("port_xmit_packets")).isEqualTo(Reading.of(568318856L));
        assertThat(h1.hwCounters()).isEmpty();

        RdmaDevice mlx4 = device(all, "mlx4_0");
        assertThat(mlx4.hcaType()).isEqualTo(Reading.of("MT4099"));
        assertThat(mlx4.boardId()).isEqualTo(Reading.of("SM_1141000001000"));
        assertThat(mlx4.firmwareVersion()).isEqualTo(Reading.of("2.31.5050"));
        assertThat(mlx4.ports()).extracting(RdmaPort::port).containsExactly(1, 2);
        assertThat(port(mlx4, 1).rate()).isEqualTo(Reading.of(new LinkRate(40, "4X", "40 Gb/sec (4X QDR)")));
        assertThat(port(mlx4, 1).rcvDataBytes()).isEqualTo(Reading.of(8884894436L));
        assertThat(port(mlx4, 1).xmitDataBytes()).isEqualTo(Reading.of(106036453180L));
        assertThat(port(mlx4, 1).counter("port_xmit_wait")).isEqualTo(Reading.of(3599L));
        // port 2's link_layer file is "InfiniBand\n\n"
        assertThat(port(mlx4, 2).linkLayer()).isEqualTo(Reading.of("InfiniBand"));
        assertThat(port(mlx4, 2).isInfiniband()).isTrue();
        assertThat(port(mlx4, 2).rcvDataBytes()).isEqualTo(Reading.of(9841747136L));
        assertThat(port(mlx4, 2).xmitDataBytes()).isEqualTo(Reading.of(106161427560L));
        assertThat(port(mlx4, 2).counter("port_xmit_wait")).isEqualTo(Reading.of(3846L));

        RdmaDevice mlx5 = device(all, "mlx5_0");
        assertThat(mlx5.nodeGuid()).isEqualTo(Reading.of("0a7f:bc12:45ef:d23b"));
        assertThat(mlx5.hcaType()).isEqualTo(Reading.of("MT4118"));
        assertThat(mlx5.firmwareVersion()).isEqualTo(Reading.of("14.28.2006"));
        RdmaPort m1 = port(mlx5, 1);
        // phys_state literally "4: ACTIVE" here; procfs reports PhysState ACTIVE, id 4
        assertThat(m1.physState()).isEqualTo(Reading.of(new PortState(4, "ACTIVE")));
        assertThat(m1.rate()).isEqualTo(Reading.of(new LinkRate(25, "1X", "25 Gb/sec (1X EDR)"))); // 3125000000 B/s
        assertThat(m1.rcvDataBytes()).isEqualTo(Reading.of(72505381512L));
        assertThat(m1.xmitDataBytes()).isEqualTo(Reading.of(11523046035392L));
        assertThat(m1.counter("unicast_xmit_packets")).isEqualTo(Reading.of(10907922116L));
        assertThat(m1.hwCounters()).hasSize(25)
                .containsEntry("duplicate_request", Reading.of(41L))
                .containsEntry("lifespan", Reading.of(10L))
                .containsEntry("local_ack_timeout_err", Reading.of(131L))
                .containsEntry("out_of_sequence", Reading.of(1L))
                .containsEntry("req_cqe_error", Reading.of(3481L))
                .containsEntry("req_cqe_flush_error", Reading.of(80L))
                .containsEntry("resp_cqe_error", Reading.of(8109L))
                .containsEntry("resp_cqe_flush_error", Reading.of(4708L))
                .containsEntry("roce_adp_retrans", Reading.of(99L))
                .containsEntry("roce_adp_retrans_to", Reading.of(4L))
                .containsEntry("roce_slow_restart_cnps", Reading.of(131L))
                .containsEntry("rx_read_requests", Reading.of(175528982L))
                .containsEntry("rx_write_requests", Reading.of(742114L));
    }

    @Test
    void nodeExporterFixtureMatchesItsE2eOutput() throws Exception {
        List<RdmaDevice> all = collector.collect(HostRoot.at(SysfsFixtures.unpackTtar("node_exporter-class-infiniband.ttar.txt", dir)));
        assertThat(all).extracting(RdmaDevice::name).containsExactly("i40iw0", "mlx4_0");

        // node_infiniband_info{board_id="I40IW Board ID",device="i40iw0",firmware_version="0.2",hca_type="I40IW"}
        RdmaDevice iw = device(all, "i40iw0");
        assertThat(iw.boardId()).isEqualTo(Reading.of("I40IW Board ID"));
        assertThat(iw.firmwareVersion()).isEqualTo(Reading.of("0.2"));
        assertThat(iw.hcaType()).isEqualTo(Reading.of("I40IW"));
        RdmaPort iw1 = port(iw, 1);
        // rate_bytes_per_second 1.25e+09, state_id 4, physical_state_id 5, and no counter metrics at all
        assertThat(iw1.rate()).isEqualTo(Reading.of(new LinkRate(10, "4X", "10 Gb/sec (4X)")));
        assertThat(iw1.state().orElse(null).code()).isEqualTo(4);
        assertThat(iw1.physState().orElse(null).code()).isEqualTo(5);
        assertThat(iw1.counters()).isNotEmpty()
                .allSatisfy((name, r) -> assertThat(r).isEqualTo(Reading.absent("N/A (no PMA)")));
        assertThat(iw1.rcvDataBytes()).isEqualTo(Reading.absent("N/A (no PMA)"));

        RdmaPort p1 = port(device(all, "mlx4_0"), 1);
        assertThat(p1.rate().orElse(null).gbps() * 1e9 / 8).isEqualTo(5e9); // rate_bytes_per_second 5e+09
        assertThat(p1.rcvDataBytes()).isEqualTo(Reading.of(18_527_668L)); // port_data_received_bytes_total 1.8527668e+07
        assertThat(p1.xmitDataBytes()).isEqualTo(Reading.of(14_933_760L)); // 1.493376e+07
        assertThat(p1.counter("port_rcv_packets")).isEqualTo(Reading.of(6_825_908_347L));
        assertThat(p1.counter("port_xmit_packets")).isEqualTo(Reading.of(6_235_865L));
        assertThat(p1.counter("port_xmit_discards")).isEqualTo(Reading.of(5L));
        assertThat(p1.counter("port_xmit_wait")).isEqualTo(Reading.of(4_294_967_295L)); // saturated 32-bit counter
        assertThat(p1.counter("multicast_rcv_packets")).isEqualTo(Reading.of(93L));
        assertThat(p1.counter("multicast_xmit_packets")).isEqualTo(Reading.of(16L));
        assertThat(p1.counter("unicast_rcv_packets")).isEqualTo(Reading.of(61148L));
        assertThat(p1.counter("unicast_xmit_packets")).isEqualTo(Reading.of(61239L));
    }

    @Test
    void gpudH100TreeMatchesClassTestGo() {
        List<RdmaDevice> all = collector.collect(HostRoot.at(SysfsFixtures.resourceTree("gpud-h100")));
        assertThat(all).extracting(RdmaDevice::name).containsExactly(
                "mlx5_0", "mlx5_1", "mlx5_4", "mlx5_5", "mlx5_6", "mlx5_7", "mlx5_8", "mlx5_9", "mlx5_bond_0");
        for (RdmaDevice cx7 : all.subList(0, 8)) {
            assertThat(cx7.boardId()).isEqualTo(Reading.of("MT_0000000838"));
            assertThat(cx7.firmwareVersion()).isEqualTo(Reading.of("28.41.1000"));
            assertThat(cx7.hcaType()).isEqualTo(Reading.of("MT4129"));
            RdmaPort p = port(cx7, 1);
            assertThat(p.rate()).isEqualTo(Reading.of(new LinkRate(400, "4X", "400 Gb/sec (4X NDR)")));
            assertThat(p.state()).isEqualTo(Reading.of(new PortState(4, "ACTIVE")));
            assertThat(p.physState()).isEqualTo(Reading.of(new PortState(5, "LinkUp")));
            assertThat(p.isInfiniband()).isTrue();
            assertThat(p.gids()).isEmpty();
        }
        RdmaPort mlx51 = port(device(all, "mlx5_1"), 1);
        assertThat(mlx51.counter("link_downed")).isEqualTo(Reading.of(255L));
        assertThat(mlx51.counter("excessive_buffer_overrun_errors")).isEqualTo(Reading.of(15L));
        assertThat(mlx51.counter("port_rcv_switch_relay_errors")).isEqualTo(Reading.of(2L));
        assertThat(mlx51.rcvDataBytes()).isEqualTo(Reading.of(205_128_687_774_249L * 4));
        assertThat(mlx51.hwCounters()).containsEntry("lifespan", Reading.of(12L));

        RdmaDevice bf3 = device(all, "mlx5_bond_0");
        assertThat(bf3.hcaType()).isEqualTo(Reading.of("MT41692"));
        assertThat(bf3.firmwareVersion()).isEqualTo(Reading.of("32.38.3056"));
        assertThat(bf3.boardId()).isEqualTo(Reading.of("MT_0000000884"));
        assertThat(port(bf3, 1).rate()).isEqualTo(Reading.of(new LinkRate(200, "2X", "200 Gb/sec (2X NDR)")));
        assertThat(port(bf3, 1).isEthernet()).isTrue();
    }

    @Test
    void aRootWithoutInfinibandGivesAnEmptyList() {
        assertThat(collector.collect(HostRoot.at(dir))).isEmpty();
    }

    @Test
    void ratesStatedByProcfsAndGpud() {
        assertThat(InfinibandAttributes.rate("r", Reading.of("2.5 Gb/sec (1X SDR)")).orElse(null).gbps()).isEqualTo(2.5);
        assertThat(InfinibandAttributes.rate("r", Reading.of("500 Gb/sec (4X HDR)")).orElse(null).width()).isEqualTo("4X");
        assertThat(InfinibandAttributes.rate("r", Reading.of("0 GB/sec")).orElse(null).gbps()).isEqualTo(0.0);
        assertThat(InfinibandAttributes.rate("r", Reading.of("25.78125 Gb/sec"))).isEqualTo(
                Reading.of(new LinkRate(25.78125, "", "25.78125 Gb/sec")));
        assertThat(InfinibandAttributes.rate("r", Reading.of("abc Gb/sec"))).isInstanceOf(Reading.Failed.class);
        assertThat(InfinibandAttributes.state("s", Reading.of("4 ACTIVE"))).isInstanceOf(Reading.Failed.class);
        assertThat(InfinibandAttributes.state("s", Reading.of(""))).isInstanceOf(Reading.Failed.class);
    }

    @Test
    void gidTableFromNccl1573ShowGids() throws Exception {
        // show_gids prints exactly gids/N, gid_attrs/types/N and gid_attrs/ndevs/N; rebuild those files from it
        String port = "sys/class/infiniband/mlx5_0/ports/1";
        Path p = Files.createDirectories(dir.resolve(port));
        Files.writeString(p.resolve("link_layer"), "Ethernet\n");
        Files.createDirectories(p.resolve("gids"));
        Files.createDirectories(p.resolve("gid_attrs/types"));
        Files.createDirectories(p.resolve("gid_attrs/ndevs"));
        for (int i = 0; i < 4; i++) {
            // indexes 0-3 were zero in that pod; a directory makes any read of their attributes fail loudly
            Files.writeString(p.resolve("gids/" + i), "0000:0000:0000:0000:0000:0000:0000:0000\n");
            Files.createDirectories(p.resolve("gid_attrs/types/" + i));
        }
        for (String line : SysfsFixtures.resourceLines("issue-nccl-1573-gid_attrs-types-read-EINVAL-zero-gid-show_gids.txt")) {
            String[] f = line.trim().split("\\s+");
            if (!f[0].equals("mlx5_0") || f.length < 6) continue;
            Files.writeString(p.resolve("gids/" + f[2]), f[3] + "\n");
            Files.writeString(p.resolve("gid_attrs/types/" + f[2]), (f[f.length - 2].equals("v2") ? "RoCE v2" : "IB/RoCE v1") + "\n");
            Files.writeString(p.resolve("gid_attrs/ndevs/" + f[2]), f[f.length - 1] + "\n");
        }
        // a non-zero GID whose type cannot be read (the EINVAL case) must be a failed reading
        Files.writeString(p.resolve("gids/8"), "fe80:0000:0000:0000:a4ed:ccff:fe8b:1995\n");
        Files.createDirectories(p.resolve("gid_attrs/types/8"));

        RdmaPort port1 = port(collector.collect(HostRoot.at(dir)).getFirst(), 1);
        assertThat(port1.gids()).extracting(RdmaPort.Gid::index).containsExactly(4, 5, 6, 7, 8);
        assertThat(port1.gids().get(0).gid()).isEqualTo("fe80:0000:0000:0000:a4ed:ccff:fe8b:1994");
        assertThat(port1.gids().get(2).gid()).isEqualTo("0000:0000:0000:0000:0000:ffff:0a98:000c");
        assertThat(port1.gids().subList(0, 4)).extracting(RdmaPort.Gid::type).containsExactly(
                Reading.of(GidType.ROCE_V1), Reading.of(GidType.ROCE_V2), Reading.of(GidType.ROCE_V1), Reading.of(GidType.ROCE_V2));
        assertThat(port1.gids().subList(0, 4)).extracting(RdmaPort.Gid::netdev).containsOnly(Reading.of("net1"));
        assertThat(port1.gids().get(4).type()).isInstanceOf(Reading.Failed.class);
        assertThat(((Reading.Failed<GidType>) port1.gids().get(4).type()).path()).isEqualTo(port + "/gid_attrs/types/8");
    }

    @Test
    void ibRoceV1TypeIsIbOnAnInfinibandPort() {
        assertThat(InfinibandAttributes.gidType("t", Reading.of("IB/RoCE v1"), false)).isEqualTo(Reading.of(GidType.IB));
        assertThat(InfinibandAttributes.gidType("t", Reading.of("IB/RoCE v1"), true)).isEqualTo(Reading.of(GidType.ROCE_V1));
        assertThat(InfinibandAttributes.gidType("t", Reading.of("RoCE v2"), true)).isEqualTo(Reading.of(GidType.ROCE_V2));
    }

    @Test
    void pciAddressFromTheDeviceLink() throws Exception {
        Path pci = Files.createDirectories(dir.resolve("sys/devices/pci0000:00/0000:00:01.0/0000:17:00.0/infiniband/mlx5_0/ports/1"));
        Files.createSymbolicLink(pci.getParent().getParent().resolve("device"), Path.of("../../../0000:17:00.0"));
        Files.createDirectories(dir.resolve("sys/class/infiniband"));
        Files.createSymbolicLink(dir.resolve("sys/class/infiniband/mlx5_0"),
                Path.of("../../devices/pci0000:00/0000:00:01.0/0000:17:00.0/infiniband/mlx5_0"));
        assertThat(collector.collect(HostRoot.at(dir)).getFirst().pciAddress()).isEqualTo(Reading.of("0000:17:00.0"));
    }
}
