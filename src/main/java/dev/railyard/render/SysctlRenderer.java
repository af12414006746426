package dev.railyard.render;

import java.util.List;

/**
 * etc/sysctl.d/90-railyard-rdma.conf: socket buffer ceilings (268435456 unless the spec's
 * {@code expect.net_buffer_bytes} says otherwise). systemd-sysctl applies it at every boot, so no one-shot unit that
 * runs {@code sysctl -w} again is needed.
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
