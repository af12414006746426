package dev.railyard.collect;

import dev.railyard.model.PciDevice;
import dev.railyard.model.PcieTopology.Affinity;

import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The nvidia-smi topo -m class between two PCI functions, from their upstream paths alone.
 *
 * <p>A PCIe switch shows in sysfs as two bridge levels: its upstream port, then one downstream port per slot.
 * nvidia-smi and NCCL count such a pair as one bridge (NCCL's topology walk rewinds two path elements per hop), so
 * two devices behind different downstream ports of one switch are PIX, not PXB. Counted from the host bridge, the
 * levels pair up as (host bridge, root port), (switch upstream, downstream), (next upstream, downstream), ...
 */
public final class PcieAffinity {

    private PcieAffinity() {
    }

    /** Empty when either device's place in the PCI tree is unknown (no sys/devices path). */
    public static Optional<Affinity> between(PciDevice a, PciDevice b) {
        List<String> pa = a.upstreamPath();
        List<String> pb = b.upstreamPath();
        if (pa.isEmpty() || pb.isEmpty()) return Optional.empty();
        if (!pa.getFirst().equals(pb.getFirst())) {
            boolean sameNode = a.numaNode().optional().equals(b.numaNode().optional());
            return Optional.of(sameNode ? Affinity.NODE : Affinity.SYS);
        }
        int common = 1;
        while (common < pa.size() && common < pb.size() && pa.get(common).equals(pb.get(common))) common++;
        if (common == 1) return Optional.of(Affinity.PHB);
        // Bridges crossed: the deepest shared one and everything below it on both sides, grouped into switches.
        Set<String> switches = new HashSet<>();
        addSwitches(pa, common - 1, switches);
        addSwitches(pb, common - 1, switches);
        return Optional.of(switches.size() <= 1 ? Affinity.PIX : Affinity.PXB);
    }

    private static void addSwitches(List<String> path, int from, Set<String> switches) {
        for (int level = from; level < path.size(); level++) {
            switches.add(path.get(level - level % 2));
        }
    }
}
