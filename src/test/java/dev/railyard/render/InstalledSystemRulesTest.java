package dev.railyard.render;

import dev.railyard.model.ClusterSpec;
import dev.railyard.platform.HostRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the node's installed system changes in the rendered files: IPoIB's mode from the HCA's driver and the OS
 * release (S3's ConnectX-4 on RHEL 9 and 10), and the slurmd drop-in only where the node's slurmd.service lacks
 * the limit (Slurm's own unit, captured from its source, sets it).
 */
class InstalledSystemRulesTest {

    private static final Path UPSTREAM_SLURMD = Path.of("src/test/resources/render/slurmd-units/slurm-upstream.service");

    private static InstalledSystem rhel(int major) {
        return new InstalledSystem(Optional.of("rhel"), Optional.of(major), Optional.empty());
    }

    private static List<RenderedFile> render(String example, String node, InstalledSystem sys) {
        return NodeRenderer.all().render(Examples.spec(example), node, Optional.empty(), RenderInput.DEFAULT_AGENT_PORT, sys);
    }

    @Test
    void connectX4OnRhel9RunsDatagramAt4092AndTheKeyfileSaysWhy() {
        RenderedFile f = Examples.file(render("s3-r730-ib-qdr", "r720", rhel(9)), "etc/NetworkManager/system-connections/railyard-ib.nmconnection");
        assertThat(f.content()).contains("mtu=4092\ntransport-mode=datagram\n")
                .contains("# IPoIB datagram, MTU 4092: mlx5 (ConnectX-4 and later) on RHEL 9 runs enhanced IPoIB, which has no connected mode")
                .contains("(the spec asks for connected mode and MTU 65520, which this HCA and OS cannot do)")
                .doesNotContain("65520\n");
        assertThat(f.notes()).singleElement().asString().startsWith("ib0: IPoIB datagram, MTU 4092: mlx5");
    }

    @Test
    void withoutTheReleaseRhelIsTakenAsEightOrLaterAndTheFileSaysSo() {
        RenderedFile f = Examples.file(Examples.render("s3-r730-ib-qdr", "r730-1"), "etc/NetworkManager/system-connections/railyard-ib.nmconnection");
        assertThat(f.content()).contains("transport-mode=datagram").contains("8 or later assumed");
    }

    @Test
    void connectedModeStaysWhereTheDriverHasIt() {
        // RHEL 7's mlx5 and any release's mlx4 (ConnectX-3) have IPoIB-CM
        assertThat(Examples.file(render("s3-r730-ib-qdr", "r720", rhel(7)), "etc/NetworkManager/system-connections/railyard-ib.nmconnection")
                .content()).contains("mtu=65520\ntransport-mode=connected\n").contains("# IPoIB connected, MTU 65520: the spec asks for it and mlx5");
        ClusterSpec s3 = Examples.spec("s3-r730-ib-qdr");
        String yaml = Examples.file(NodeRenderer.all().render(mlx4(s3), "r720", Optional.empty(), 1, rhel(9)),
                "etc/NetworkManager/system-connections/railyard-ib.nmconnection").content();
        assertThat(yaml).contains("transport-mode=connected").contains("mlx4 on RHEL offers connected mode");
    }

    @Test
    void aDatagramMtuAboveTheCeilingIsCut() {
        ClusterSpec s3 = Examples.spec("s3-r730-ib-qdr");
        ClusterSpec.Network ib = s3.network("ib").orElseThrow();
        ClusterSpec.Network datagram = new ClusterSpec.Network(ib.name(), ib.role(), ib.linkLayer(), ib.rateGbps(), ib.mtu(), ib.subnet(),
                Optional.of(ClusterSpec.IpoibMode.DATAGRAM), ib.bind(), ib.subnetManager());
        ClusterSpec ubuntu = withNetworkAndOs(s3, datagram, ClusterSpec.OsFamily.UBUNTU);
        String netplan = Examples.file(NodeRenderer.all().render(ubuntu, "r720", Optional.empty(), 1), NetplanRenderer.PATH).content();
        assertThat(netplan).contains("      mtu: 4092\n      infiniband-mode: datagram\n").contains("(the spec's 65520 needs connected mode)");
    }

    @Test
    void theOsReleaseAndSlurmdUnitAreReadFromTheRoot(@TempDir Path root) throws IOException {
        Files.createDirectories(root.resolve("etc"));
        Files.writeString(root.resolve("etc/os-release"), "NAME=\"Red Hat Enterprise Linux\"\nID=\"rhel\"\nVERSION_ID=\"10.1\"\n");
        Files.createDirectories(root.resolve("usr/lib/systemd/system"));
        Files.copy(UPSTREAM_SLURMD, root.resolve("usr/lib/systemd/system/slurmd.service"));
        InstalledSystem sys = InstalledSystem.read(HostRoot.at(root));
        assertThat(sys.osId()).contains("rhel");
        assertThat(sys.osMajor()).contains(10);
        assertThat(sys.slurmdSets("LimitMEMLOCK=infinity")).isTrue();
    }

    @Test
    void theSlurmdDropInOnlyWhereTheInstalledUnitLacksTheLimit() throws IOException {
        String upstream = Files.readString(UPSTREAM_SLURMD);
        InstalledSystem packaged = new InstalledSystem(Optional.empty(), Optional.empty(), Optional.of(upstream));
        InstalledSystem handMade = new InstalledSystem(Optional.empty(), Optional.empty(),
                Optional.of(upstream.replace("LimitMEMLOCK=infinity\n", "")));
        assertThat(render("s4-h100-hdr", "compute01", packaged)).extracting(RenderedFile::path).doesNotContain(SystemdRenderer.SLURMD_DROPIN);
        assertThat(Examples.render("s4-h100-hdr", "compute01")).extracting(RenderedFile::path).doesNotContain(SystemdRenderer.SLURMD_DROPIN);
        assertThat(Examples.file(render("s4-h100-hdr", "compute01", handMade), SystemdRenderer.SLURMD_DROPIN).content())
                .contains("[Service]\nLimitMEMLOCK=infinity\n");
    }

    private static ClusterSpec mlx4(ClusterSpec s) {
        ClusterSpec.Network ib = s.network("ib").orElseThrow();
        java.util.Map<String, ClusterSpec.Binding> bind = new java.util.LinkedHashMap<>();
        ib.bind().forEach((n, b) -> bind.put(n, new ClusterSpec.Binding(b.netdev(),
                b.rdma().map(r -> new dev.railyard.model.NetInterface.RdmaPortRef("mlx4_0", r.port())), b.address())));
        return withNetworkAndOs(s, new ClusterSpec.Network(ib.name(), ib.role(), ib.linkLayer(), ib.rateGbps(), ib.mtu(), ib.subnet(),
                ib.ipoibMode(), bind, ib.subnetManager()), ClusterSpec.OsFamily.RHEL);
    }

    private static ClusterSpec withNetworkAndOs(ClusterSpec s, ClusterSpec.Network net, ClusterSpec.OsFamily os) {
        List<ClusterSpec.Network> nets = s.networks().stream().map(n -> n.name().equals(net.name()) ? net : n).toList();
        List<ClusterSpec.Node> nodes = s.nodes().stream().map(n -> new ClusterSpec.Node(n.name(), n.address(), n.bmc(), n.gpus(), os,
                n.disableNetdevs(), n.ssh())).toList();
        return new ClusterSpec(s.cluster(), s.source(), nodes, s.gpus(), nets, s.expect(), s.slurm(), s.sshUser(), s.ssh(), s.agent());
    }
}
