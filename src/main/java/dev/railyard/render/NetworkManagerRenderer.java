package dev.railyard.render;

import dev.railyard.model.ClusterSpec.OsFamily;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * NetworkManager keyfiles for RHEL-family nodes (RHEL 9 and 10 read only keyfiles for new profiles): one
 * connection per fabric interface, IPoIB in the mode the HCA and OS allow ({@link IpoibChoice}).
 */
public final class NetworkManagerRenderer implements Renderer {

    static final String DIR = "etc/NetworkManager/system-connections/";

    @Override
    public List<RenderedFile> render(RenderInput in) {
        if (in.node().osFamily() != OsFamily.RHEL) return List.of();
        List<RenderedFile> files = new ArrayList<>();
        for (RenderInput.Bound b : in.fabric()) {
            String id = "railyard-" + b.network().name();
            StringBuilder k = new StringBuilder(in.header("#"));
            k.append("# ").append(NetworkText.describe(b)).append('\n');
            k.append("# NetworkManager ignores keyfiles that are not owned by root with mode 0600.\n");
            k.append("[connection]\n");
            k.append("id=").append(id).append('\n');
            // A UUID derived from cluster, node and network: rendering twice gives the same profile, not a second one.
            k.append("uuid=").append(uuid(in.spec().cluster() + "/" + in.node().name() + "/" + b.network().name())).append('\n');
            k.append("type=").append(b.infiniband() ? "infiniband" : "ethernet").append('\n');
            k.append("interface-name=").append(b.binding().netdev()).append('\n');
            k.append("autoconnect=true\n\n");
            Optional<IpoibChoice> ipoib = b.infiniband() ? Optional.of(IpoibChoice.of(in, b)) : Optional.empty();
            if (ipoib.isPresent()) {
                IpoibChoice c = ipoib.get();
                k.append("[infiniband]\n");
                k.append("# IPoIB ").append(c.why()).append(".\n");
                c.mtu().ifPresent(m -> k.append("mtu=").append(m).append('\n'));
                k.append("transport-mode=").append(c.modeName()).append("\n\n");
            } else {
                b.network().mtu().ifPresent(m -> k.append("[ethernet]\nmtu=").append(m).append("\n\n"));
            }
            k.append("[ipv4]\n");
            if (b.cidr().isPresent()) {
                k.append("method=manual\naddress1=").append(b.cidr().get()).append('\n');
            } else {
                k.append("method=disabled\n");
            }
            k.append("# A fabric link that is down must not hold up boot or other connections.\nmay-fail=true\n\n");
            k.append("[ipv6]\nmethod=disabled\n");
            files.add(new RenderedFile(DIR + id + ".nmconnection", k.toString(), RenderedFile.PRIVATE)
                    .withNotes(ipoib.map(c -> List.of(b.binding().netdev() + ": IPoIB " + c.why())).orElse(List.of())));
        }
        return files;
    }

    static String uuid(String name) {
        return UUID.nameUUIDFromBytes(("railyard:" + name).getBytes(StandardCharsets.UTF_8)).toString();
    }
}
