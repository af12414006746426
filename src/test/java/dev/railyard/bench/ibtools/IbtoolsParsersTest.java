package dev.railyard.bench.ibtools;

import dev.railyard.bench.ToolParseException;
import dev.railyard.diagnose.RealSample;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class IbtoolsParsersTest {

    private static IbstatPort port(IbstatReport r, String ca) {
        return r.adapters().stream().filter(a -> a.name().equals(ca)).findFirst().orElseThrow().ports().getFirst();
    }

    @Test
    void ibstatDownPollingOnRoce() {
        IbstatReport r = new IbstatParser().parse(RealSample.text("ib-tools/gpud-ibstat-h100-some-down-polling-roce.txt"));
        assertThat(r.complete()).isTrue();
        IbstatPort down = port(r, "mlx5_11");
        assertThat(down.state()).isEqualTo("Down");
        assertThat(down.physicalState()).isEqualTo("Polling");
        assertThat(down.rate()).isEqualTo(40);
        assertThat(down.linkLayer()).isEqualTo("Ethernet");
        assertThat(port(r, "mlx5_0").rate()).isEqualTo(400);
        assertThat(r.adapters().stream().filter(a -> a.name().equals("mlx5_1")).findFirst().orElseThrow().caType())
                .isEqualTo("MT4125");
    }

    @Test
    void ibstatCutShortByIbpanic() {
        IbstatReport r = new IbstatParser().parse(RealSample.text("ib-tools/gpud-ibstat-a100-hdr-ib-ibpanic-exit255.txt"));
        assertThat(r.complete()).isFalse();
        assertThat(r.panicLine()).contains("stat of IB device 'mlx5_8' failed");
        assertThat(r.adapters()).hasSize(8);
        assertThat(port(r, "mlx5_0").baseLid()).isEqualTo(13247);
        assertThat(port(r, "mlx5_0").rate()).isEqualTo(200);
        assertThat(port(r, "mlx5_0").infiniband()).isTrue();
    }

    @Test
    void ibstatVfDownWithLinkUpAndNoLid() {
        IbstatReport r = new IbstatParser().parse(RealSample.text("ib-tools/issue-network-operator-249-ibstat-State-Down-PhysLinkUp-VF.txt"));
        IbstatPort p = port(r, "mlx5_7");
        assertThat(p.state()).isEqualTo("Down");
        assertThat(p.physicalState()).isEqualTo("LinkUp");
        assertThat(p.baseLid()).isEqualTo(IbstatPort.NO_LID);
        assertThat(p.smLid()).isEqualTo(1);
    }

    @Test
    void ibstatOmniPathEmptyCaType() {
        IbstatReport r = new IbstatParser().parse(RealSample.text("ib-tools/issue-opa-ff-4-ibstat-hfi1-empty-catype-fw-and-ipoib-addrs.txt"));
        assertThat(r.adapters()).hasSize(1);
        IbstatCa ca = r.adapters().getFirst();
        assertThat(ca.name()).isEqualTo("hfi1_0");
        assertThat(ca.caType()).isEmpty();
        assertThat(ca.firmware()).isEmpty();
        assertThat(ca.ports().getFirst().rate()).isEqualTo(100);
        assertThat(ca.ports().getFirst().active()).isTrue();
    }

    @Test
    void ibvDevinfoPortDown() {
        List<IbvDevice> devices = new IbvDevinfoParser().parse(RealSample.text("ib-tools/issue-deepep-60-ibv_devinfo-PORT_DOWN-cx7.txt"));
        IbvDevice d = devices.getFirst();
        assertThat(d.hcaId()).isEqualTo("mlx5_0");
        assertThat(d.firmware()).isEqualTo("28.39.2048");
        IbvPort p = d.ports().getFirst();
        assertThat(p.state()).isEqualTo("PORT_DOWN");
        assertThat(p.portLid()).isEqualTo(65535);
        assertThat(p.activeMtu()).isEqualTo(4096);
        assertThat(p.linkLayer()).isEqualTo("InfiniBand");
        assertThat(devices).extracting(IbvDevice::hcaId).contains("mlx5_1");
    }

    @Test
    void ibvDevinfoVerboseWithGidLines() {
        List<IbvDevice> devices = new IbvDevinfoParser().parse(RealSample.text("ib-tools/issue-ucx-7613-ibv_devinfo-v-cx4-device-caps.txt"));
        assertThat(devices.getFirst().firmware()).isEqualTo("12.28.2006");
        assertThat(devices.getFirst().ports()).isEmpty(); // the excerpt stops before the port section
    }

    @Test
    void ibvDevinfoExcerptWithoutHcaIdFailsNamingTheFirstLine() {
        assertThatThrownBy(() -> new IbvDevinfoParser().parse(
                RealSample.text("ib-tools/issue-k8s-rdma-shared-dev-plugin-164-ibv_devinfo-v-roce-gids.txt")))
                .isInstanceOfSatisfying(ToolParseException.class, e -> assertThat(e.lineNumber()).isEqualTo(1));
    }

    @Test
    void showGidsV1V2PairsStartingAtIndex4() {
        ShowGids g = new ShowGidsParser().parse(RealSample.text("ib-tools/issue-nccl-1538-show_gids-tabs-v1-v2-net1-container.txt"));
        assertThat(g.entries().getFirst().index()).isEqualTo(4);
        assertThat(g.entries().getFirst().version()).isEqualTo("v1");
        assertThat(g.entries().getFirst().ipv4()).isEmpty();
        GidEntry v2 = g.roceV2Ipv4("mlx5_0").orElseThrow();
        assertThat(v2.index()).isEqualTo(7);
        assertThat(v2.ipv4()).isEqualTo("10.156.129.132");
        assertThat(v2.netdev()).isEqualTo("net1");
    }

    @Test
    void showGidsSpaceSeparatedWithTrailer() {
        ShowGids g = new ShowGidsParser().parse(RealSample.text("ib-tools/issue-spectrumscale-pr4-show_gids-cx6-roce-v1-v2.txt"));
        assertThat(g.entries()).hasSize(6);
        assertThat(g.gidsFound()).isEqualTo(6);
        assertThat(g.roceV2Ipv4("mlx5_0").orElseThrow().index()).isEqualTo(5);
        assertThat(g.entries().get(4).gid()).isEqualTo("0000:0000:0000:0000:0000:ffff:ac13:003c");
    }

    @Test
    void showGidsNoneFound() {
        ShowGids g = new ShowGidsParser().parse(RealSample.text("ib-tools/issue-k8s-rdma-sriov-dev-plugin-30-show_gids-empty-ibv_devices.txt"));
        assertThat(g.entries()).isEmpty();
        assertThat(g.gidsFound()).isZero();
    }

    @Test
    void kernelLogMlx5PortInitThenActive() {
        KernelLog log = new KernelLogParser().parse(RealSample.text("ib-tools/issue-gpud-pr1209-journalctl-k-mlx5-port-link-INIT-ACTIVE.txt"));
        assertThat(log.linkEvents()).extracting(LinkEvent::state).containsSubsequence("INIT", "ACTIVE");
        LinkEvent first = log.linkEvents().getFirst();
        assertThat(first.device()).isEqualTo("mlx5_5");
        assertThat(first.pciAddress()).isEqualTo("0000:ab:00.0");
        assertThat(first.port()).isEqualTo(1);
        assertThat(first.timestamp()).contains("Feb 14 05:03:41");
    }

    @Test
    void kernelLogNetdevLinkDownAndXids() {
        KernelLog boot = new KernelLogParser().parse(RealSample.text("ib-tools/dmesg-gpud-boot-mlx5_core-decode-iso.txt"));
        assertThat(boot.linkEvents()).anySatisfy(e -> {
            assertThat(e.device()).isEqualTo("enp157s0f1np1");
            assertThat(e.state()).isEqualTo("down");
            assertThat(e.timestamp()).isEqualTo("2025-01-17T15:37:28,650514+00:00");
        });
        KernelLog xids = new KernelLogParser().parse(RealSample.text("kernel-log/xid-dmesg-gpud-xid48-63-94-iso.txt"));
        assertThat(xids.xids()).extracting(x -> x.xid()).contains(48, 63, 94);
        assertThat(xids.xids().getFirst().pciAddress()).isEqualTo("0000:19:00");
        KernelLog gsp = new KernelLogParser().parse(RealSample.text("kernel-log/xid-dmesg-gpud-xid119-gsp-timeout.txt"));
        assertThat(gsp.xids()).allSatisfy(x -> assertThat(x.xid()).isEqualTo(119));
        assertThat(gsp.xids().getFirst().pciAddress()).isEqualTo("0000:9b:00");
    }
}
