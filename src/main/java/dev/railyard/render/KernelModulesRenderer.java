package dev.railyard.render;

import java.util.List;

/**
 * etc/modules-load.d/railyard-gpudirect.conf: nvidia-peermem at boot on nodes with GPUs and an RDMA binding, so
 * NCCL can use GPUDirect RDMA. Bring-up scripts often load both {@code nv_peer_mem} (the retired MLNX_OFED
 * module) and {@code nvidia-peermem} with errors sent to /dev/null; only the second exists with current drivers,
 * and systemd-modules-load logs it if it fails.
 */
public final class KernelModulesRenderer implements Renderer {

    static final String PATH = "etc/modules-load.d/railyard-gpudirect.conf";

    @Override
    public List<RenderedFile> render(RenderInput in) {
        int gpus = in.spec().gpusFor(in.node().name()).map(g -> g.perNode()).orElse(0);
        boolean rdma = in.fabric().stream().anyMatch(b -> b.binding().rdma().isPresent());
        if (gpus == 0 || !rdma) return List.of();
        String text = in.header("#")
                + "# GPUDirect RDMA: the NIC reads and writes GPU memory directly (check: lsmod | grep nvidia_peermem).\n"
                + "nvidia-peermem\n";
        return List.of(RenderedFile.of(PATH, text));
    }
}
