package dev.railyard.render;

import dev.railyard.spec.SpecWriter;

import java.util.List;

/**
 * etc/railyard/cluster.yaml: the spec itself, where the agent unit reads it, written back from what was parsed
 * (so it holds exactly the keys railyard understood, with their defaults' comments).
 */
public final class SpecCopyRenderer implements Renderer {

    static final String PATH = "etc/railyard/cluster.yaml";

    @Override
    public List<RenderedFile> render(RenderInput in) {
        return List.of(RenderedFile.of(PATH, in.clusterHeader("#") + new SpecWriter().write(in.spec())));
    }
}
