package dev.railyard.render;

import dev.railyard.model.ClusterSpec;
import dev.railyard.model.RdmaDevice;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** Every file of one node, from every renderer, sorted by path; two renderers claiming one path is a bug. */
public final class NodeRenderer {

    private final List<Renderer> renderers;

    public NodeRenderer(List<Renderer> renderers) {
        this.renderers = List.copyOf(renderers);
    }

    /** All file kinds: the composition the CLI uses. */
    public static NodeRenderer all() {
        return new NodeRenderer(List.of(new NetplanRenderer(), new NetworkManagerRenderer(), new SysctlRenderer(),
                new LimitsRenderer(), new KernelModulesRenderer(), new SystemdRenderer(), new NcclEnvRenderer(),
                new HostsRenderer(), new SshConfigRenderer(), new SlurmRenderer(), new OpenSmRenderer(),
                new PrometheusRenderer(), new SpecCopyRenderer(), new ActiveCheckRenderer()));
    }

    public List<RenderedFile> render(ClusterSpec spec, String node, Optional<List<RdmaDevice>> rdma, int agentPort) {
        return render(spec, node, rdma, agentPort, InstalledSystem.unknown());
    }

    public List<RenderedFile> render(ClusterSpec spec, String node, Optional<List<RdmaDevice>> rdma, int agentPort,
                                     InstalledSystem system) {
        ClusterSpec.Node n = spec.node(node).orElseThrow(() -> new IllegalArgumentException("no node " + node));
        RenderInput in = new RenderInput(spec, n, rdma, agentPort, system);
        List<RenderedFile> files = new ArrayList<>();
        Set<String> paths = new HashSet<>();
        for (Renderer r : renderers) {
            for (RenderedFile f : r.render(in)) {
                if (!paths.add(f.path())) throw new IllegalStateException("two renderers wrote " + f.path());
                files.add(f);
            }
        }
        files.sort(Comparator.comparing(RenderedFile::path));
        return List.copyOf(files);
    }

    /** Writes the files under {@code dir} with their modes (a plain output directory, not a live root: see apply). */
    public static void write(Path dir, List<RenderedFile> files) throws IOException {
        for (RenderedFile f : files) {
            Path p = dir.resolve(f.path());
            Files.createDirectories(p.getParent());
            Files.writeString(p, f.content());
            try {
                Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(FileModes.symbolic(f.mode())));
            } catch (UnsupportedOperationException e) {
                // a non-POSIX file system keeps its default mode; apply sets the mode on the node itself
            }
        }
    }
}
