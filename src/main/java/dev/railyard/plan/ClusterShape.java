package dev.railyard.plan;

import dev.railyard.model.ClusterSpec;
import dev.railyard.model.ClusterSpec.LinkLayer;
import dev.railyard.model.ClusterSpec.Role;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What plan reads from a spec: each node's GPUs as that node says (S3: 2, 2 and 1), the fabric preset of its first
 * compute network with a rate, and the fewest compute rails any GPU node has (the NICs that carry its traffic).
 */
public record ClusterShape(List<String> nodes, List<Integer> gpusPerNode, Optional<Fabric> fabric, int nicsPerNode, List<String> notes) {

    public ClusterShape {
        nodes = List.copyOf(nodes);
        gpusPerNode = List.copyOf(gpusPerNode);
        notes = List.copyOf(notes);
    }

    public static ClusterShape of(ClusterSpec spec) {
        List<String> names = new ArrayList<>();
        List<Integer> gpus = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        int nics = Integer.MAX_VALUE;
        for (ClusterSpec.Node n : spec.nodes()) {
            names.add(n.name());
            int g = spec.gpusFor(n.name()).map(ClusterSpec.Gpus::perNode).orElse(0);
            gpus.add(g);
            int rails = (int) spec.networks().stream().filter(net -> net.role() == Role.COMPUTE && net.bind().containsKey(n.name())).count();
            if (g > 0) nics = Math.min(nics, rails);
        }
        Optional<Fabric> fabric = Optional.empty();
        for (ClusterSpec.Network net : spec.networks()) {
            if (net.role() != Role.COMPUTE || net.rateGbps().isEmpty()) continue;
            boolean ib = net.linkLayer().orElse(LinkLayer.ETHERNET) == LinkLayer.INFINIBAND;
            fabric = Fabric.forLink(ib, net.rateGbps().get());
            notes.add("fabric from the spec's network " + net.name() + " (" + (ib ? "InfiniBand" : "Ethernet") + ", "
                    + Calculation.number(net.rateGbps().get()) + " Gb/s): " + fabric.map(f -> f.label).orElse("no preset; pass --fabric"));
            break;
        }
        if (gpus.stream().distinct().count() > 1) {
            List<String> each = new ArrayList<>();
            for (int i = 0; i < names.size(); i++) each.add(names.get(i) + " " + gpus.get(i));
            notes.add("GPUs per node as each node says: " + String.join(", ", each));
        }
        return new ClusterShape(names, gpus, fabric, nics == Integer.MAX_VALUE || nics == 0 ? 1 : nics, notes);
    }

    public int gpus() {
        return gpusPerNode.stream().mapToInt(Integer::intValue).sum();
    }

    /** The node with the most GPUs: its NICs and PSUs are the tightest. */
    public int mostGpusPerNode() {
        return gpusPerNode.stream().mapToInt(Integer::intValue).max().orElse(0);
    }
}
