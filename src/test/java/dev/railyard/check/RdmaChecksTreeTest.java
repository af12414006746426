package dev.railyard.check;

import dev.railyard.check.rules.NetCarrierRule;
import dev.railyard.model.ClusterSpec;
import dev.railyard.model.Finding;
import dev.railyard.model.Severity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import static dev.railyard.check.CheckTrees.check;
import static dev.railyard.check.CheckTrees.write;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * rdma.* and net.carrier end to end: real collectors and every check over gpud's H100 tree and node_exporter's
 * ConnectX-3 tree, each firing case changing only the files it is about, each passing case the same tree without.
 */
class RdmaChecksTreeTest {

    private static final ClusterSpec S1 = CheckTrees.example("s1-homelab-v100-roce.yaml");

    @TempDir
    Path dir;

    private static Finding of(List<Finding> findings, String id, String subject) {
        return Found.one(findings, id, subject);
    }

    @Test
    void portInInitWithoutSubnetManagerFails() throws IOException {
        Path root = CheckTrees.h100(dir);
        assertThat(of(check(root), RdmaPortCheck.STATE, "mlx5_0:1").severity()).isEqualTo(Severity.PASS);
        write(root, "sys/class/infiniband/mlx5_0/ports/1/state", "2: INIT\n");
        write(root, "sys/class/infiniband/mlx5_0/ports/1/sm_lid", "0x0\n");
        List<Finding> f = check(root);
        Finding state = of(f, RdmaPortCheck.STATE, "mlx5_0:1");
        assertThat(state.severity()).isEqualTo(Severity.FAIL);
        assertThat(state.observed()).isEqualTo("2: INIT (no subnet manager has configured the port)");
        assertThat(state.remediation()).contains(Fix.START_SUBNET_MANAGER).contains("systemctl enable --now opensm");
        assertThat(of(f, RdmaPortCheck.SM, "mlx5_0:1").severity()).isEqualTo(Severity.FAIL);
        assertThat(of(f, RdmaPortCheck.STATE, "mlx5_1:1").severity()).as("untouched port").isEqualTo(Severity.PASS);
    }

    @Test
    void subnetManagerLidZeroFailsAndAnyLidPasses() throws IOException {
        Path root = CheckTrees.h100(dir);
        // gpud's capture has no sm_lid files: a missing reading is UNKNOWN, never a PASS
        Finding uncaptured = of(check(root), RdmaPortCheck.SM, "mlx5_4:1");
        assertThat(uncaptured.severity()).isEqualTo(Severity.UNKNOWN);
        assertThat(uncaptured.observed()).contains("sm_lid");
        write(root, "sys/class/infiniband/mlx5_4/ports/1/sm_lid", "0x0\n");
        Finding noSm = of(check(root), RdmaPortCheck.SM, "mlx5_4:1");
        assertThat(noSm.severity()).isEqualTo(Severity.FAIL);
        assertThat(noSm.observed()).isEqualTo("sm_lid 0");
        assertThat(noSm.remediation()).contains(Fix.START_SUBNET_MANAGER);
        write(root, "sys/class/infiniband/mlx5_4/ports/1/sm_lid", "0x1\n");
        Finding sm = of(check(root), RdmaPortCheck.SM, "mlx5_4:1");
        assertThat(sm.severity()).isEqualTo(Severity.PASS);
        assertThat(sm.observed()).isEqualTo("sm_lid 1");
        // the RoCE bond has no subnet manager to ask about
        assertThat(CheckTrees.withId(check(root), RdmaPortCheck.SM)).noneMatch(x -> x.subject().startsWith("mlx5_bond_0"));
    }

    @Test
    void pollingPortWithoutCableWarnsWithoutSpec() throws IOException {
        Path root = CheckTrees.h100(dir);
        assertThat(of(check(root), RdmaPortCheck.PHYS, "mlx5_5:1").observed()).isEqualTo("5: LinkUp");
        write(root, "sys/class/infiniband/mlx5_5/ports/1/state", "1: DOWN\n");
        write(root, "sys/class/infiniband/mlx5_5/ports/1/phys_state", "2: Polling\n");
        List<Finding> f = check(root);
        Finding phys = of(f, RdmaPortCheck.PHYS, "mlx5_5:1");
        assertThat(phys.severity()).isEqualTo(Severity.WARN);
        assertThat(phys.remediation()).startsWith("# no cable or no peer: seat the QSFP cable/DAC")
                .endsWith("\ncat /sys/class/infiniband/mlx5_5/ports/1/phys_state");
        Finding state = of(f, RdmaPortCheck.STATE, "mlx5_5:1");
        assertThat(state.severity()).as("a DGX Spark cables one of its four ports: an unused port may be down").isEqualTo(Severity.WARN);
        assertThat(state.remediation()).contains("ibv_devinfo -d mlx5_5").contains("ib_write_bw --ib-port=1");
    }

    @Test
    void tenGigOnAFortyGigSpecFailsNamingTheRateFile() throws IOException {
        Path root = CheckTrees.seed000(dir);
        Finding ok = of(check(root, S1), RdmaRateCheck.ID, "mlx4_0:2");
        assertThat(ok.severity()).isEqualTo(Severity.PASS);
        assertThat(ok.observed()).isEqualTo("40 Gb/sec (4X QDR)");
        assertThat(ok.expected()).isEqualTo("40 Gb/sec (spec)");
        write(root, "sys/class/infiniband/mlx4_0/ports/2/rate", "10 Gb/sec (4X)\n");
        Finding bad = of(check(root, S1), RdmaRateCheck.ID, "mlx4_0:2");
        assertThat(bad.severity()).isEqualTo(Severity.FAIL);
        assertThat(bad.observed()).isEqualTo("10 Gb/sec (4X)");
        assertThat(bad.remediation()).endsWith("cat /sys/class/infiniband/mlx4_0/ports/2/rate");
        // without a spec only the sibling port says what the link could do
        Finding sibling = of(check(root), RdmaRateCheck.ID, "mlx4_0:2");
        assertThat(sibling.severity()).isEqualTo(Severity.WARN);
        assertThat(sibling.expected()).isEqualTo("40 Gb/sec (4X QDR) like mlx4_0:1");
    }

    @Test
    void roceV2GidNamesTheGidIndexForPerftest() throws IOException {
        Path root = CheckTrees.seed000(dir);
        Finding gid = of(check(root, S1), RoceGidCheck.ID, "mlx4_0:2");
        assertThat(gid.severity()).isEqualTo(Severity.PASS);
        assertThat(gid.observed()).isEqualTo("GID index 2 = RoCE v2 0000:0000:0000:0000:0000:ffff:0a00:0001");
        assertThat(gid.remediation()).isEqualTo("ib_write_bw --ib-dev=mlx4_0 --ib-port=2 --gid-index=2");
    }

    @Test
    void roceV1OnlyAndMissingGidFail() throws IOException {
        Path root = CheckTrees.seed000(dir);
        write(root, "sys/class/infiniband/mlx4_0/ports/2/gid_attrs/types/2", "IB/RoCE v1\n");
        Finding v1 = of(check(root, S1), RoceGidCheck.ID, "mlx4_0:2");
        assertThat(v1.severity()).isEqualTo(Severity.FAIL);
        assertThat(v1.observed()).isEqualTo("only RoCE v1 GID index 2 for 10.0.0.1");
        assertThat(v1.remediation()).contains("options mlx4_core roce_mode=2").contains("--gid-index=2");
        for (int i = 0; i < 4; i++) write(root, "sys/class/infiniband/mlx4_0/ports/2/gids/" + i,
                "0000:0000:0000:0000:0000:0000:0000:0000\n");
        Finding none = of(check(root, S1), RoceGidCheck.ID, "mlx4_0:2");
        assertThat(none.severity()).isEqualTo(Severity.FAIL);
        assertThat(none.observed()).isEqualTo("no GID for 10.0.0.1 (0 GIDs)");
        assertThat(none.remediation()).startsWith("ip addr add 10.0.0.1/24 dev ens6d1\nprintf 'network:");
    }

    @Test
    void mtu1500OnA9000SpecFails() throws IOException {
        Path root = CheckTrees.seed000(dir);
        Finding bad = of(check(root, S1), FabricNetdevCheck.MTU, "ens6d1");
        assertThat(bad.severity()).isEqualTo(Severity.FAIL);
        assertThat(bad.observed()).isEqualTo("1500");
        assertThat(bad.remediation()).startsWith("ip link set dev ens6d1 mtu 9000\nprintf 'network:")
                .contains("    ens6d1:\\n      mtu: 9000\\n' > /etc/netplan/90-railyard-ens6d1-mtu.yaml");
        write(root, CheckTrees.ENS6D1 + "/mtu", "9000\n");
        assertThat(of(check(root, S1), FabricNetdevCheck.MTU, "ens6d1").severity()).isEqualTo(Severity.PASS);
    }

    @Test
    void fabricAddressMissingOrDownFails() throws IOException {
        Path root = CheckTrees.seed000(dir);
        assertThat(of(check(root, S1), FabricNetdevCheck.ADDRESS, "ens6d1").severity())
                .as("no railyard/ip-address.json in the tree").isEqualTo(Severity.UNKNOWN);
        write(root, "railyard/ip-address.json", "[{\"ifindex\":4,\"ifname\":\"ens6d1\",\"addr_info\":[{\"family\":"
                + "\"inet6\",\"local\":\"fe80::268a:7ff:fe52:aab1\",\"prefixlen\":64}]}]");
        Finding missing = of(check(root, S1), FabricNetdevCheck.ADDRESS, "ens6d1");
        assertThat(missing.severity()).isEqualTo(Severity.FAIL);
        assertThat(missing.remediation().lines()).containsExactly("ip addr add 10.0.0.1/24 dev ens6d1",
                "printf 'network:\\n  version: 2\\n  ethernets:\\n    ens6d1:\\n      addresses: [10.0.0.1/24]\\n' > "
                        + "/etc/netplan/90-railyard-ens6d1-address.yaml && chmod 600 /etc/netplan/90-railyard-ens6d1-address.yaml "
                        + "&& netplan apply");
        write(root, "railyard/ip-address.json", "[{\"ifindex\":4,\"ifname\":\"ens6d1\",\"addr_info\":[{\"family\":"
                + "\"inet\",\"local\":\"10.0.0.1\",\"prefixlen\":24}]}]");
        Finding ok = of(check(root, S1), FabricNetdevCheck.ADDRESS, "ens6d1");
        assertThat(ok.severity()).isEqualTo(Severity.PASS);
        assertThat(ok.observed()).isEqualTo("10.0.0.1/24");
        write(root, CheckTrees.ENS6D1 + "/operstate", "down\n");
        Finding down = of(check(root, S1), FabricNetdevCheck.ADDRESS, "ens6d1");
        assertThat(down.severity()).isEqualTo(Severity.FAIL);
        assertThat(down.remediation()).startsWith("ip link set dev ens6d1 up\n");
    }

    @Test
    void roceOverABondOrABondMemberWarns() throws IOException {
        Path root = CheckTrees.connectx3(CheckTrees.h100(dir));
        CheckTrees.gid(root, "mlx5_bond_0", 1, 0, "0000:0000:0000:0000:0000:ffff:0a00:0201", "RoCE v2", "eth0");
        Finding alone = of(check(root), RdmaLagCheck.ID, "eth0");
        assertThat(alone.severity()).isEqualTo(Severity.PASS);
        assertThat(alone.observed()).isEqualTo("not bonded, RDMA [mlx5_bond_0:1]");
        CheckTrees.link(root, CheckTrees.ETH0 + "/master", "../../../../../virtual/net/dmz");
        Finding member = of(check(root), RdmaLagCheck.ID, "eth0");
        assertThat(member.severity()).isEqualTo(Severity.WARN);
        assertThat(member.observed()).isEqualTo("member of bond dmz, RDMA [mlx5_bond_0:1]");
        assertThat(member.remediation()).isEqualTo(RdmaLagCheck.FIX);
        // node_exporter's dmz bonds eth0 and eth4: RoCE on the bond itself
        write(root, "sys/class/infiniband/mlx5_bond_0/ports/1/gid_attrs/ndevs/0", "dmz\n");
        Finding bond = of(check(root), RdmaLagCheck.ID, "dmz");
        assertThat(bond.severity()).isEqualTo(Severity.WARN);
        assertThat(bond.observed()).isEqualTo("bond of [eth0, eth4] carrying RDMA [mlx5_bond_0:1]");
    }

    @Test
    void errorCountersWarnAndZeroPasses() throws IOException {
        Path root = CheckTrees.h100(dir);
        List<Finding> real = check(root);
        // as captured: every port has port_rcv_errors 14 and excessive_buffer_overrun_errors 15, mlx5_1 link_downed 255
        assertThat(of(real, RdmaCountersCheck.ID, "mlx5_1:1").observed())
                .isEqualTo("link_downed=255, port_rcv_errors=14, excessive_buffer_overrun_errors=15");
        write(root, "sys/class/infiniband/mlx5_0/ports/1/counters/symbol_error", "57\n");
        Finding bad = of(check(root), RdmaCountersCheck.ID, "mlx5_0:1");
        assertThat(bad.severity()).isEqualTo(Severity.WARN);
        assertThat(bad.observed()).isEqualTo("symbol_error=57, port_rcv_errors=14, excessive_buffer_overrun_errors=15");
        assertThat(bad.remediation()).contains("perfquery -x").contains("mlx5_0 port 1");
        write(root, "sys/class/infiniband/mlx5_0/ports/1/counters/symbol_error", "0\n");
        write(root, "sys/class/infiniband/mlx5_0/ports/1/counters/port_rcv_errors", "0\n");
        write(root, "sys/class/infiniband/mlx5_0/ports/1/counters/excessive_buffer_overrun_errors", "0\n");
        Finding ok = of(check(root), RdmaCountersCheck.ID, "mlx5_0:1");
        assertThat(ok.severity()).isEqualTo(Severity.PASS);
        assertThat(ok.observed()).isEqualTo("10 error counters all 0");
    }

    @Test
    void iwarpWithoutPmaIsUnknown() throws IOException {
        Finding f = of(check(CheckTrees.connectx3(dir)), RdmaCountersCheck.ID, "i40iw0:1");
        assertThat(f.severity()).isEqualTo(Severity.UNKNOWN);
        assertThat(f.observed()).contains("N/A (no PMA)");
    }

    @Test
    void carrierFlapsWarn() throws IOException {
        Path root = CheckTrees.connectx3(dir);
        Finding ok = of(check(root), CarrierCheck.ID, "eth0");
        assertThat(ok.severity()).isEqualTo(Severity.PASS);
        assertThat(ok.observed()).isEqualTo("2 carrier changes");
        write(root, CheckTrees.ETH0 + "/carrier_changes", "57\n");
        Finding flaps = of(check(root), CarrierCheck.ID, "eth0");
        assertThat(flaps.severity()).isEqualTo(Severity.WARN);
        assertThat(flaps.observed()).isEqualTo("57 carrier changes");
        assertThat(flaps.remediation()).isEqualTo(NetCarrierRule.linkFix("eth0"))
                .startsWith("ip -s link show dev eth0\n");
        assertThat(CheckTrees.withId(check(root), CarrierCheck.ID)).as("bonds are not cabling")
                .extracting(Finding::subject).containsExactly("eth0");
    }
}
