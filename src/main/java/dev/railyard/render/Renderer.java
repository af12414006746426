package dev.railyard.render;

import java.util.List;

/** Renders one kind of configuration file for one node; returns nothing when the kind does not apply to it. */
public interface Renderer {
    List<RenderedFile> render(RenderInput in);
}
