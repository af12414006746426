package dev.railyard.render;

import dev.railyard.model.ClusterSpec;
import dev.railyard.model.ClusterSpec.Gpus;
import dev.railyard.model.ClusterSpec.Role;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Slurm: the node and partition lines (etc/slurm/railyard-nodes.conf, included from slurm.conf), gres.conf and
 * topology.conf. The same on every node, as Slurm requires. Rendered only when the spec has a {@code slurm} key.
 */
public final class SlurmRenderer implements Renderer {

    static final String NODES = "etc/slurm/railyard-nodes.conf";
    static final String GRES = "etc/slurm/gres.conf";
    static final String TOPOLOGY = "etc/slurm/topology.conf";

    @Override
    public List<RenderedFile> render(RenderInput in) {
        if (in.spec().slurm().isEmpty()) return List.of();
        return List.of(RenderedFile.of(NODES, nodes(in)), RenderedFile.of(GRES, gres(in)),
                RenderedFile.of(TOPOLOGY, topology(in)));
    }

    private static String nodes(RenderInput in) {
        ClusterSpec spec = in.spec();
        StringBuilder s = new StringBuilder(in.clusterHeader("#"));
        s.append("""
                # Include it from slurm.conf ("Include /etc/slurm/railyard-nodes.conf"), which also needs
                # "GresTypes=gpu" and, for topology.conf, "TopologyPlugin=topology/tree".
                # No CPUs= or RealMemory=: slurmd reports what the node has ('slurmd -C' prints it), and a node
                # configured with more than it has is drained. The 8 x H100 guide's two slurm.conf copies disagreed (CPUs=256
                # and 128, Gres=gpu:h100_sxm5_80gb:8 and gpu:h100:8); its MaxConcurrentJobs is not a slurm.conf
                # parameter (slurmctld refuses to start), and ControlMachine is the old name of SlurmctldHost.
                """);
        for (ClusterSpec.Node n : spec.nodes()) {
            s.append("NodeName=").append(n.name()).append(" NodeAddr=").append(managementAddress(in, n));
            gresOf(in, n.name()).ifPresent(g -> s.append(" Gres=gpu:").append(g.type()).append(':').append(g.count()));
            s.append(" State=UNKNOWN\n");
        }
        s.append("PartitionName=").append(spec.slurm().get().partition())
                .append(" Nodes=").append(HostList.compress(spec.nodes().stream().map(ClusterSpec.Node::name).toList()))
                .append(" Default=YES MaxTime=INFINITE State=UP\n");
        return s.toString();
    }

    private static String gres(RenderInput in) {
        StringBuilder s = new StringBuilder(in.clusterHeader("#"));
        s.append("# Device files rather than AutoDetect=nvml: Debian's and many distributions' slurmd are built without NVML.\n");
        Map<String, List<String>> byLine = new LinkedHashMap<>();
        for (ClusterSpec.Node n : in.spec().nodes()) {
            gresOf(in, n.name()).ifPresent(g -> byLine.computeIfAbsent(" Name=gpu Type=" + g.type() + " File="
                    + (g.count() == 1 ? "/dev/nvidia0" : "/dev/nvidia[0-" + (g.count() - 1) + "]"), k -> new ArrayList<>()).add(n.name()));
        }
        byLine.forEach((line, names) -> s.append("NodeName=").append(HostList.compress(names)).append(line).append('\n'));
        return s.toString();
    }

    private static String topology(RenderInput in) {
        StringBuilder s = new StringBuilder(in.clusterHeader("#"));
        s.append("# One switch per compute network; the scheduler keeps a job's nodes under as few switches as it can.\n");
        List<String> switches = new ArrayList<>();
        for (ClusterSpec.Network net : in.spec().networks()) {
            if (net.role() != Role.COMPUTE || net.bind().isEmpty()) continue;
            switches.add(net.name());
            s.append("SwitchName=").append(net.name()).append(" Nodes=")
                    .append(HostList.compress(List.copyOf(net.bind().keySet()))).append('\n');
        }
        if (switches.size() > 1) {
            s.append("# Several rails: a common parent, or Slurm finds the switches have no common ancestor.\n");
            s.append("SwitchName=fabric Switches=").append(String.join(",", switches)).append('\n');
        }
        return s.toString();
    }

    private static String managementAddress(RenderInput in, ClusterSpec.Node n) {
        return in.boundFor(n.name()).stream().filter(b -> b.network().role() == Role.MANAGEMENT)
                .flatMap(b -> b.bareAddress().stream()).findFirst().orElse(n.address());
    }

    record Gres(String type, int count) {}

    private static Optional<Gres> gresOf(RenderInput in, String node) {
        Optional<Gpus> gpus = in.spec().gpusFor(node).filter(g -> g.perNode() > 0);
        return gpus.map(g -> new Gres(in.spec().slurm().get().gresType().orElse(gresType(g.model())), g.perNode()));
    }

    /** "NVIDIA H100 80GB HBM3" -> "h100", "Tesla V100-PCIE-16GB" -> "v100", "NVIDIA GB10" -> "gb10". */
    static String gresType(String model) {
        for (String word : model.toLowerCase(Locale.ROOT).split("\\s+")) {
            if (word.equals("nvidia") || word.equals("tesla") || word.isEmpty()) continue;
            int dash = word.indexOf('-');
            return (dash > 0 ? word.substring(0, dash) : word).replaceAll("[^a-z0-9_]", "");
        }
        return "gpu";
    }
}
