package dev.railyard.render;

import java.util.List;

/**
 * etc/security/limits.d/90-railyard-memlock.conf: unlimited locked memory, which RDMA memory registration needs.
 * A drop-in rather than {@code tee -a /etc/security/limits.conf}, which appends the lines again on
 * every run and cannot be removed cleanly.
 */
public final class LimitsRenderer implements Renderer {

    static final String PATH = "etc/security/limits.d/90-railyard-memlock.conf";

    @Override
    public List<RenderedFile> render(RenderInput in) {
        String text = in.header("#")
                + "# RDMA registers (pins) memory: without this, ibv_reg_mr fails and NCCL falls back to sockets.\n"
                + "# pam_limits reads this at login only: services get LimitMEMLOCK in their units (railyard-agent's;\n"
                + "# Slurm's slurmd.service sets it, else railyard's drop-in), and jobs inherit slurmd's limit, not this file's.\n"
                + "*    soft    memlock    unlimited\n"
                + "*    hard    memlock    unlimited\n";
        return List.of(RenderedFile.of(PATH, text));
    }
}
