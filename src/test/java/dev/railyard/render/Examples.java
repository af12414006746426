package dev.railyard.render;

import dev.railyard.model.ClusterSpec;
import dev.railyard.model.RdmaDevice;
import dev.railyard.spec.SpecReader;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** The four example systems' specs in examples/, and rendering them. */
final class Examples {

    static final List<String> ALL = List.of("s1-homelab-v100-roce", "s2-dgx-spark-roce", "s3-r730-ib-qdr", "s4-h100-hdr");

    private Examples() {
    }

    static ClusterSpec spec(String example) {
        return new SpecReader().read(Path.of("examples", example + ".yaml"));
    }

    static List<RenderedFile> render(String example, String node) {
        return NodeRenderer.all().render(spec(example), node, Optional.empty(), RenderInput.DEFAULT_AGENT_PORT);
    }

    static List<RenderedFile> render(ClusterSpec spec, String node, List<RdmaDevice> rdma) {
        return NodeRenderer.all().render(spec, node, Optional.of(rdma), RenderInput.DEFAULT_AGENT_PORT);
    }

    static RenderedFile file(List<RenderedFile> files, String path) {
        return files.stream().filter(f -> f.path().equals(path)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + path + " in " + files.stream().map(RenderedFile::path).toList()));
    }
}
