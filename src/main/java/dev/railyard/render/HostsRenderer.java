package dev.railyard.render;

import dev.railyard.model.ClusterSpec;
import dev.railyard.model.ClusterSpec.Role;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * etc/hosts: every node by its name on the management address, and by NAME-NETWORK on each fabric address
 * (such as spark-01-mesh for a node's direct-attached link), so ssh, MPI and NCCL's bootstrap resolve fabric names without DNS. A managed block:
 * people keep their own lines in /etc/hosts (a NAS, a licence server), and apply merges the block among them.
 */
public final class HostsRenderer implements Renderer {

    static final String PATH = "etc/hosts";
    private static final Pattern IPV4 = Pattern.compile("[0-9]{1,3}(\\.[0-9]{1,3}){3}");

    /** What a node without an /etc/hosts gets before the block; an existing file keeps its own loopback lines. */
    static final String LOOPBACK = "127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n\n";

    @Override
    public List<RenderedFile> render(RenderInput in) {
        StringBuilder s = new StringBuilder(in.header("#"));
        s.append("# No 127.0.1.1 line for ").append(in.node().name()).append(": the node's own name resolves to its management address, so\n");
        s.append("# MPI and NCCL bootstraps that look it up do not bind to loopback.\n");
        List<String> names = new ArrayList<>();
        s.append("\n# Management: how nodes reach each other by name.\n");
        for (ClusterSpec.Node n : in.spec().nodes()) {
            String addr = in.boundFor(n.name()).stream().filter(b -> b.network().role() == Role.MANAGEMENT)
                    .flatMap(b -> b.bareAddress().stream()).findFirst().orElse(n.address());
            if (IPV4.matcher(addr).matches()) {
                s.append(addr).append('\t').append(n.name()).append('\n');
                names.add(n.name());
            } else {
                s.append("# ").append(n.name()).append(" is reached as ").append(addr).append(" (a name, resolved by DNS)\n");
            }
        }
        for (ClusterSpec.Network net : in.spec().networks()) {
            if (net.role() == Role.MANAGEMENT || net.bind().isEmpty()) continue;
            s.append("\n# ").append(net.name()).append(net.subnet().map(x -> " " + x).orElse("")).append('\n');
            for (var e : net.bind().entrySet()) {
                String name = e.getKey() + "-" + net.name();
                e.getValue().address().ifPresent(a -> {
                    s.append(a.contains("/") ? a.substring(0, a.indexOf('/')) : a).append('\t').append(name).append('\n');
                    names.add(name);
                });
            }
        }
        return List.of(RenderedFile.block(PATH, LOOPBACK, s.toString(), new ManagedBlock.Overrides.HostNames(names)));
    }
}
