package dev.railyard.check;

import dev.railyard.model.ClusterSpec;
import dev.railyard.model.Finding;
import dev.railyard.model.PcieTopology;
import dev.railyard.model.PcieTopology.Affinity;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * topo.gpu-nic.affinity: each GPU's nearest fabric NIC should share its PCIe switch or root complex (PIX/PXB/PHB).
 * NODE or SYS means GPUDirect RDMA crosses the CPU interconnect (seed 003's R720: GPU and HCA on different sockets).
 */
public final class GpuNicAffinityCheck implements Check {

    static final String ID = "topo.gpu-nic.affinity";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public List<Finding> run(CheckInput in) {
        PcieTopology topo = in.inventory().topology();
        List<PcieTopology.Endpoint> gpus = topo.endpoints().stream().filter(e -> e.kind() == PcieTopology.Kind.GPU).toList();
        Set<String> fabricNics = fabricNics(in, topo);
        if (fabricNics.isEmpty()) return List.of();
        if (gpus.isEmpty()) {
            if (in.gpuCount() == 0) return List.of();
            return List.of(Finding.unknown(ID, in.node(), Reading.absent("no GPU endpoints in the PCIe topology"), "PIX/PXB/PHB"));
        }
        List<Finding> out = new ArrayList<>();
        for (PcieTopology.Endpoint g : gpus) {
            Optional<PcieTopology.Pair> best = topo.pairs().stream()
                    .filter(p -> p.gpu().equals(g.name()) && fabricNics.contains(p.nic()))
                    .min(Comparator.comparing(PcieTopology.Pair::affinity));
            String expected = "a fabric NIC at PIX/PXB/PHB";
            // named by bus ID too, like the gpu.* findings: an index alone shifts when a GPU drops off the bus
            String subject = g.name() + " (" + g.pciAddress() + ")";
            if (best.isEmpty()) {
                out.add(Finding.unknown(ID, subject, Reading.absent("no GPU-NIC pair computed for " + g.name()), expected));
                continue;
            }
            Affinity a = best.get().affinity();
            String observed = best.get().nic() + " " + a;
            if (a == Affinity.NODE || a == Affinity.SYS) {
                out.add(Finding.of(ID, Severity.WARN, subject, observed, expected,
                        "move the HCA into a slot on the GPU's root complex/CPU socket (nvidia-smi topo -m shows the "
                                + "matrix); until then pin each job to the NIC nearest its GPU and expect lower GPUDirect RDMA bandwidth"));
            } else {
                out.add(Finding.pass(ID, subject, observed, expected));
            }
        }
        return out;
    }

    /** The NICs on compute networks (spec), or every NIC endpoint when there is no spec. */
    private static Set<String> fabricNics(CheckInput in, PcieTopology topo) {
        Set<String> all = topo.endpoints().stream().filter(e -> e.kind() == PcieTopology.Kind.NIC)
                .map(PcieTopology.Endpoint::name).collect(Collectors.toSet());
        if (in.spec().isEmpty()) return all;
        Set<String> named = in.bindings().stream().filter(b -> b.network().role() == ClusterSpec.Role.COMPUTE)
                .flatMap(b -> java.util.stream.Stream.concat(java.util.stream.Stream.of(b.binding().netdev()),
                        b.binding().rdma().map(r -> r.device()).stream()))
                .collect(Collectors.toSet());
        return all.stream().filter(named::contains).collect(Collectors.toSet());
    }
}
