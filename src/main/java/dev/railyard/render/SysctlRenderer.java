package dev.railyard.render;

import java.util.List;

/**
 * etc/sysctl.d/90-railyard-rdma.conf: socket buffer ceilings (seed 002: 268435456, the spec's
 * {@code expect.net_buffer_bytes}). systemd-sysctl applies it at every boot, which is all that seed 002's
 * rdma-optimize.service did with {@code sysctl -w} a second time.
 */
public final class SysctlRenderer implements Renderer {

    static final String PATH = "etc/sysctl.d/90-railyard-rdma.conf";

    @Override
    public List<RenderedFile> render(RenderInput in) {
        long bytes = in.spec().expect().netBufferBytes();
        String text = in.header("#")
                + "# Socket buffer ceilings for NCCL's socket transport, MPI bootstrap and TCP benchmarks over the fabric.\n"
                + "# The DGX Spark guide wrote these with 'tee' and again from a boot script; one file here is enough.\n"
                + "net.core.rmem_max = " + bytes + "\n"
                + "net.core.wmem_max = " + bytes + "\n";
        return List.of(RenderedFile.of(PATH, text));
    }
}
