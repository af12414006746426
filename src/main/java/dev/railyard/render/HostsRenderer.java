package dev.railyard.render;

import dev.railyard.model.ClusterSpec;
import dev.railyard.model.ClusterSpec.Role;

import java.util.List;
import java.util.regex.Pattern;

/**
 * etc/hosts: every node by its name on the management address, and by NAME-NETWORK on each fabric address
 * (seed 002's spark-01-mesh), so ssh, MPI and NCCL's bootstrap resolve fabric names without DNS.
 */
public final class HostsRenderer implements Renderer {

    static final String PATH = "etc/hosts";
    private static final Pattern IPV4 = Pattern.compile("[0-9]{1,3}(\\.[0-9]{1,3}){3}");

    @Override
    public List<RenderedFile> render(RenderInput in) {
        StringBuilder s = new StringBuilder(in.header("#"));
        s.append("""
                # The whole file, loopback lines included: apply replaces /etc/hosts and keeps the old one as a backup.
                127.0.0.1\tlocalhost
                ::1\tlocalhost ip6-localhost ip6-loopback
                """);
        s.append("127.0.1.1\t").append(in.node().name()).append('\n');
        s.append("\n# Management: how nodes reach each other by name.\n");
        for (ClusterSpec.Node n : in.spec().nodes()) {
            String addr = in.boundFor(n.name()).stream().filter(b -> b.network().role() == Role.MANAGEMENT)
                    .flatMap(b -> b.bareAddress().stream()).findFirst().orElse(n.address());
            if (IPV4.matcher(addr).matches()) {
                s.append(addr).append('\t').append(n.name()).append('\n');
            } else {
                s.append("# ").append(n.name()).append(" is reached as ").append(addr).append(" (a name, resolved by DNS)\n");
            }
        }
        for (ClusterSpec.Network net : in.spec().networks()) {
            if (net.role() == Role.MANAGEMENT || net.bind().isEmpty()) continue;
            s.append("\n# ").append(net.name()).append(net.subnet().map(x -> " " + x).orElse("")).append('\n');
            for (var e : net.bind().entrySet()) {
                e.getValue().address().ifPresent(a -> s.append(a.contains("/") ? a.substring(0, a.indexOf('/')) : a)
                        .append('\t').append(e.getKey()).append('-').append(net.name()).append('\n'));
            }
        }
        return List.of(RenderedFile.of(PATH, s.toString()));
    }
}
