package dev.railyard.render;

import dev.railyard.model.ClusterSpec.IpoibMode;
import dev.railyard.model.ClusterSpec.OsFamily;

import java.util.List;

/**
 * etc/netplan/60-railyard-fabric.yaml for Ubuntu-family nodes: the fabric interfaces only (addresses, MTU, IPoIB
 * mode), each {@code optional: true}. The management interface stays in the installer's file, so applying this one
 * cannot cut off the ssh session it was applied from; netplan merges the files by interface name.
 */
public final class NetplanRenderer implements Renderer {

    static final String PATH = "etc/netplan/60-railyard-fabric.yaml";

    @Override
    public List<RenderedFile> render(RenderInput in) {
        if (in.node().osFamily() != OsFamily.UBUNTU || in.fabric().isEmpty()) return List.of();
        StringBuilder y = new StringBuilder(in.header("#"));
        y.append("""
                # optional: true on every fabric interface: boot does not wait for a fabric link (a back-to-back peer
                # that is powered off would hold systemd-networkd-wait-online for two minutes). The DGX Spark
                # guide's 90-rdma-mtu.yaml had no optional, no address and a per-interface renderer: the MTU was all it kept.
                # Mode 0600: netplan warns about configuration that others can read.
                network:
                  version: 2
                  ethernets:
                """);
        for (RenderInput.Bound b : in.fabric()) {
            var n = b.network();
            y.append("    ").append(b.binding().netdev()).append(":\n");
            y.append("      # ").append(NetworkText.describe(b)).append('\n');
            y.append("      dhcp4: false\n");
            y.append("      dhcp6: false\n");
            b.cidr().ifPresent(c -> y.append("      addresses:\n        - ").append(c).append('\n'));
            n.mtu().ifPresent(m -> y.append("      mtu: ").append(m).append('\n'));
            if (b.infiniband()) {
                IpoibMode mode = n.ipoibMode().orElse(IpoibMode.DATAGRAM);
                y.append("      infiniband-mode: ").append(mode == IpoibMode.CONNECTED ? "connected" : "datagram").append('\n');
            }
            y.append("      optional: true\n");
        }
        return List.of(new RenderedFile(PATH, y.toString(), RenderedFile.PRIVATE));
    }
}
