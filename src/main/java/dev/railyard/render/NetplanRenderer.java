package dev.railyard.render;

import dev.railyard.model.ClusterSpec.OsFamily;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

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
        List<String> notes = new ArrayList<>();
        for (RenderInput.Bound b : in.fabric()) {
            var n = b.network();
            Optional<IpoibChoice> ipoib = b.infiniband() ? Optional.of(IpoibChoice.of(in, b)) : Optional.empty();
            y.append("    ").append(b.binding().netdev()).append(":\n");
            y.append("      # ").append(NetworkText.describe(b)).append('\n');
            y.append("      dhcp4: false\n");
            y.append("      dhcp6: false\n");
            b.cidr().ifPresent(c -> y.append("      addresses:\n        - ").append(c).append('\n'));
            if (ipoib.isPresent()) {
                IpoibChoice c = ipoib.get();
                y.append("      # IPoIB ").append(c.why()).append(".\n");
                c.mtu().ifPresent(m -> y.append("      mtu: ").append(m).append('\n'));
                y.append("      infiniband-mode: ").append(c.modeName()).append('\n');
                notes.add(b.binding().netdev() + ": IPoIB " + c.why());
            } else {
                n.mtu().ifPresent(m -> y.append("      mtu: ").append(m).append('\n'));
            }
            y.append("      optional: true\n");
        }
        return List.of(new RenderedFile(PATH, y.toString(), RenderedFile.PRIVATE).withNotes(notes));
    }
}
