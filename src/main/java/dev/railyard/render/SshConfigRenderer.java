package dev.railyard.render;

import dev.railyard.model.ClusterSpec;
import dev.railyard.model.ClusterSpec.Role;

import java.util.List;

/**
 * etc/ssh/ssh_config.d/railyard.conf: a Host entry per node and per fabric name (the entries people otherwise
 * keep by hand in ~/.ssh/config for a fabric name such as spark-01-mesh). A drop-in that Debian's, Ubuntu's and RHEL's ssh_config include, so no user's own
 * ~/.ssh/config is rewritten. Every local user reads it, so it holds addresses only: the spec's ssh user goes in a
 * {@code Match localuser} block (the seed kept {@code User geo} in that user's own config; here root would
 * otherwise log in to every node as geo).
 */
public final class SshConfigRenderer implements Renderer {

    static final String PATH = "etc/ssh/ssh_config.d/railyard.conf";

    @Override
    public List<RenderedFile> render(RenderInput in) {
        StringBuilder s = new StringBuilder(in.clusterHeader("#"));
        s.append("# Addresses, not names, as HostName: ssh then works before /etc/hosts or DNS is right.\n");
        for (ClusterSpec.Node n : in.spec().nodes()) host(s, n.name(), n.address());
        for (ClusterSpec.Network net : in.spec().networks()) {
            if (net.role() == Role.MANAGEMENT) continue;
            for (var e : net.bind().entrySet()) {
                String name = e.getKey() + "-" + net.name();
                e.getValue().address().ifPresent(a -> host(s, name, a.contains("/") ? a.substring(0, a.indexOf('/')) : a));
            }
        }
        in.spec().sshUser().ifPresent(u -> s.append("\n# The spec's ssh user, for the local user ").append(u)
                .append(" only (ssh_config's Match localuser):\n# root and other users keep logging in as themselves. ")
                .append("Another user who should log in as ").append(u).append("\n# writes 'User ").append(u)
                .append("' in their own ~/.ssh/config. A Match block ends this file, so it comes last.\n")
                .append("Match localuser ").append(u).append('\n')
                .append("    User ").append(u).append('\n'));
        return List.of(RenderedFile.of(PATH, s.toString()));
    }

    private static void host(StringBuilder s, String name, String address) {
        s.append("\nHost ").append(name).append('\n');
        s.append("    HostName ").append(address).append('\n');
    }
}
