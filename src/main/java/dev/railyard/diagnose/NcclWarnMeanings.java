package dev.railyard.diagnose;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What NCCL's commonest WARN lines mean, in words, so a verdict on one says the cause and not only NCCL's text. The
 * first entry whose words the WARN holds wins.
 */
final class NcclWarnMeanings {

    private record Meaning(List<String> words, String cause) {}

    private static final List<Meaning> MEANINGS = List.of(
            new Meaning(List.of("Connection closed by remote peer", "Connection reset by peer"),
                    "a peer process went away (it crashed, was killed, or hit an error first): the first error is "
                            + "in the other ranks' output"),
            new Meaning(List.of("libibverbs"), "NCCL cannot load libibverbs (rdma-core), so it cannot use IB/RoCE"),
            new Meaning(List.of("ibv_reg_mr", "ibv_create_qp", "ibv_create_cq"), "the HCA refused a memory "
                    + "registration or queue: the locked-memory limit (ulimit -l) is too low, or the HCA is out of "
                    + "resources"),
            new Meaning(List.of("out of memory", "cudaErrorMemoryAllocation"), "a GPU ran out of memory"),
            new Meaning(List.of("Cuda failure"), "a CUDA call failed on a GPU: its driver or the GPU itself is at "
                    + "fault (look for an Xid in the kernel log)"),
            new Meaning(List.of("timed out", "Timeout", "timeout"), "an operation waited past NCCL's timeout: a "
                    + "peer stopped progressing or the network dropped traffic"),
            new Meaning(List.of("unhandled system error"), "a system call failed: most often the IB/RoCE "
                    + "transport could not be set up between the hosts"),
            new Meaning(List.of("Bootstrap", "bootstrap"), "the ranks could not find each other over the bootstrap "
                    + "socket: NCCL_SOCKET_IFNAME names an interface the hosts do not share, or a firewall"));

    private NcclWarnMeanings() {
    }

    static Optional<String> of(String warn) {
        String w = warn.toLowerCase(Locale.ROOT);
        for (Meaning m : MEANINGS) {
            if (m.words().stream().anyMatch(x -> w.contains(x.toLowerCase(Locale.ROOT)))) return Optional.of(m.cause());
        }
        return Optional.empty();
    }
}
