package dev.railyard.render;

import dev.railyard.model.ClusterSpec.OsFamily;
import dev.railyard.model.RdmaPort;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * opensm.conf for the node a network names as its {@code subnet_manager}: an unmanaged switch (an IS5022, say)
 * runs none, and without one every port stays INIT with sm_lid 0. Debian and Ubuntu read etc/opensm/opensm.conf,
 * RHEL's rdma-core packaging etc/rdma/opensm.conf.
 */
public final class OpenSmRenderer implements Renderer {

    @Override
    public List<RenderedFile> render(RenderInput in) {
        List<RenderInput.Bound> managed = in.fabric().stream()
                .filter(b -> b.infiniband() && b.network().subnetManager().map(in.node().name()::equals).orElse(false))
                .toList();
        if (managed.isEmpty()) return List.of();
        RenderInput.Bound b = managed.getFirst();
        StringBuilder s = new StringBuilder(in.header("#"));
        s.append("# Subnet manager for ").append(NetworkText.describe(b)).append(".\n");
        s.append("# Enable it with: systemctl enable --now opensm\n");
        Optional<String> guid = in.port(b).flatMap(OpenSmRenderer::portGuid);
        if (guid.isPresent()) {
            s.append("# The port GUID of ").append(b.binding().rdma().map(Object::toString).orElse("the port"))
                    .append(", from this node's inventory (GID index 0 ends in it).\n");
            s.append("guid ").append(guid.get()).append('\n');
        } else {
            s.append("# guid 0x0 binds the first active port; render with --root to pin ")
                    .append(b.binding().rdma().map(Object::toString).orElse("the port")).append(".\n");
            s.append("guid 0x0000000000000000\n");
        }
        if (managed.size() > 1) {
            List<String> others = new ArrayList<>();
            for (RenderInput.Bound o : managed.subList(1, managed.size())) others.add(o.network().name());
            s.append("# One OpenSM serves one port: run another instance for ").append(String.join(", ", others)).append(".\n");
        }
        s.append("""
                # Highest priority, so that this instance is master if a managed switch later runs an SM of its own.
                sm_priority 15
                log_file /var/log/opensm.log
                """);
        String path = in.node().osFamily() == OsFamily.RHEL ? "etc/rdma/opensm.conf" : "etc/opensm/opensm.conf";
        return List.of(RenderedFile.of(path, s.toString()));
    }

    /** GID 0 of an InfiniBand port is the link-local prefix fe80:: followed by the port GUID. */
    static Optional<String> portGuid(RdmaPort p) {
        return p.gids().stream().filter(g -> g.index() == 0).findFirst().flatMap(g -> {
            String hex = g.gid().replace(":", "");
            if (hex.length() != 32 || !hex.startsWith("fe80")) return Optional.empty();
            return Optional.of("0x" + hex.substring(16));
        });
    }
}
