package dev.railyard.render;

import dev.railyard.model.RdmaPort;
import dev.railyard.model.RdmaPort.Gid;
import dev.railyard.model.RdmaPort.GidType;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * etc/nccl.conf: NCCL reads it in every process that loads it, also under srun and mpirun where the seeds'
 * /etc/profile.d/nccl-env.sh (login shells only) never runs and each variable had to be passed with -x. A managed
 * block, since people add their own settings to it.
 */
public final class NcclEnvRenderer implements Renderer {

    static final String PATH = "etc/nccl.conf";

    @Override
    public List<RenderedFile> render(RenderInput in) {
        List<RenderInput.Bound> rails = in.compute().stream().filter(b -> b.binding().rdma().isPresent()).toList();
        if (rails.isEmpty()) return List.of();
        StringBuilder s = new StringBuilder(in.header("#"));
        s.append("# Read by NCCL itself at start-up (a variable set in the environment wins over this file).\n");
        hca(s, rails);
        socket(s, in);
        gid(s, in, rails);
        s.append("""
                # GPUDirect RDMA whatever the PCIe distance between GPU and NIC. The DGX Spark guide wrote the legacy 5,
                # which NCCL reads as SYS (numbers above 4 are SYS); the name says the same in every NCCL version.
                NCCL_NET_GDR_LEVEL=SYS
                """);
        // people add their own NCCL_DEBUG or NCCL_TOPO_FILE lines: a managed block keeps them
        List<String> keys = s.toString().lines().filter(l -> !l.startsWith("#") && l.contains("="))
                .map(l -> l.substring(0, l.indexOf('='))).toList();
        return List.of(RenderedFile.block(PATH, "", s.toString(), new ManagedBlock.Overrides.Keys(keys)));
    }

    private static void hca(StringBuilder s, List<RenderInput.Bound> rails) {
        Set<String> ports = new LinkedHashSet<>();
        for (RenderInput.Bound b : rails) ports.add(b.binding().rdma().get().toString());
        s.append("# Every compute rail's device:port. The leading '=' makes the names exact: without it 'mlx5_1'\n");
        s.append("# also selects mlx5_10 to mlx5_17 on a node with more than ten HCAs.\n");
        s.append("NCCL_IB_HCA==").append(String.join(",", ports)).append('\n');
    }

    /** Bootstrap over the management network when it is bound on this node, else over the first rail. */
    private static void socket(StringBuilder s, RenderInput in) {
        Optional<RenderInput.Bound> mgmt = in.management();
        RenderInput.Bound chosen = mgmt.orElse(in.compute().getFirst());
        s.append("# Bootstrap and socket fallback over ").append(chosen.network().name())
                .append(mgmt.isPresent() ? " (management)" : " (no management interface in the spec for this node)")
                .append(". '=' makes the name exact.\n");
        s.append("NCCL_SOCKET_IFNAME==").append(chosen.binding().netdev()).append('\n');
    }

    private static void gid(StringBuilder s, RenderInput in, List<RenderInput.Bound> rails) {
        List<RenderInput.Bound> roce = rails.stream().filter(b -> !b.infiniband()).toList();
        if (roce.isEmpty()) {
            s.append("# No NCCL_IB_GID_INDEX: InfiniBand addresses by LID and ignores it. The 8 x H100 HDR guide set 3,\n");
            s.append("# copied from RoCE advice; on a RoCE port it would silently pick whatever GID sits at index 3.\n");
            return;
        }
        List<String> found = new ArrayList<>();
        Set<Integer> indexes = new LinkedHashSet<>();
        for (RenderInput.Bound b : roce) {
            Optional<Gid> gid = in.port(b).flatMap(p -> roceV2(p, b.bareAddress()));
            gid.ifPresent(g -> {
                indexes.add(g.index());
                found.add(b.binding().rdma().get() + " index " + g.index() + " = " + g.gid());
            });
        }
        if (in.rdma().isEmpty() || indexes.size() != 1 || found.size() != roce.size()) {
            s.append("# No NCCL_IB_GID_INDEX: ");
            if (in.rdma().isEmpty()) {
                s.append("render had no inventory (--root) to read this node's GID table from.\n");
            } else if (found.size() != roce.size()) {
                s.append("the inventory has no RoCE v2 GID for every rail's IPv4 address (railyard check: rdma.roce.gid).\n");
            } else {
                s.append("the rails' RoCE v2 GIDs sit at different indexes (").append(indexes).append(").\n");
            }
            s.append("# NCCL then picks the RoCE v2 IPv4 GID itself, which is safer than a fixed index: the table is\n");
            s.append("# rebuilt from the netdev's addresses and index 2 (ConnectX-3 Pro) moves when addresses change.\n");
            s.append("NCCL_IB_ROCE_VERSION_NUM=2\nNCCL_IB_ADDR_FAMILY=AF_INET\n");
            return;
        }
        s.append("# RoCE v2 GID for the rail address, from this node's inventory: ").append(String.join("; ", found)).append(".\n");
        s.append("# The index follows the netdev's addresses: render again after changing them (ConnectX-3 Pro's index 2\n");
        s.append("# was right for its addresses only).\n");
        s.append("NCCL_IB_GID_INDEX=").append(indexes.iterator().next()).append('\n');
    }

    static Optional<Gid> roceV2(RdmaPort p, Optional<String> address) {
        if (address.isEmpty()) return Optional.empty();
        String a = address.get();
        return p.gids().stream()
                .filter(g -> g.type().optional().map(t -> t == GidType.ROCE_V2).orElse(false))
                .filter(g -> ipv4(g.gid()).map(a::equals).orElse(false))
                .findFirst();
    }

    /** The IPv4 address in an IPv4-mapped GID ("0000:...:ffff:0a00:0001" -> "10.0.0.1"), parsed by hand: no DNS. */
    static Optional<String> ipv4(String gid) {
        String hex = gid.replace(":", "").toLowerCase(java.util.Locale.ROOT);
        if (hex.length() != 32 || !hex.startsWith("00000000000000000000ffff")) return Optional.empty();
        try {
            long v = Long.parseLong(hex.substring(24), 16);
            return Optional.of((v >> 24 & 255) + "." + (v >> 16 & 255) + "." + (v >> 8 & 255) + "." + (v & 255));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
