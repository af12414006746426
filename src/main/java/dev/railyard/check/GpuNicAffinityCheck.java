package dev.railyard.check;

import dev.railyard.model.CheckId;
import dev.railyard.model.ClusterSpec;
import dev.railyard.model.Finding;
import dev.railyard.model.PciDevice;
import dev.railyard.model.PcieTopology;
import dev.railyard.model.PcieTopology.Affinity;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * topo.gpu-nic.affinity: each GPU's nearest fabric NIC should share its PCIe switch or root complex (PIX/PXB/PHB).
 * NODE or SYS means GPUDirect RDMA crosses the CPU interconnect (a Dell R720: GPU and HCA on different sockets).
 * Fabric NICs are the ones the spec binds to compute networks, or else the RDMA-capable ones: a management NIC next
 * to the GPU says nothing about GPUDirect RDMA, so with no fabric NIC the answer is never a PASS: UNKNOWN where the
 * spec binds compute networks, "not applicable" (INFO) on a node with no fabric that no spec asks one of.
 */
public final class GpuNicAffinityCheck implements Check {

    static final String ID = CheckId.TOPO_GPU_NIC_AFFINITY.id();

    @Override
    public String id() {
        return ID;
    }

    @Override
    public List<Finding> run(CheckInput in) {
        PcieTopology topo = in.inventory().topology();
        List<PcieTopology.Endpoint> gpus = topo.endpoints().stream().filter(e -> e.kind() == PcieTopology.Kind.GPU).toList();
        if (gpus.isEmpty()) {
            if (in.gpuCount() == 0) return List.of();
            return List.of(Finding.unknown(ID, in.node(), Reading.absent("no GPU endpoints in the PCIe topology"), "PIX/PXB/PHB"));
        }
        Set<String> fabricNics = fabricNics(in, topo);
        if (fabricNics.isEmpty()) {
            if (in.bindings().stream().anyMatch(b -> b.network().role() == ClusterSpec.Role.COMPUTE)) {
                return List.of(Finding.unknown(ID, in.node(),
                        Reading.absent("no NIC on PCIe carries the spec's compute bindings"), "a fabric NIC at PIX/PXB/PHB"));
            }
            // no fabric and no spec asking for one (an inference box): nothing to judge, and nothing wrong
            return List.of(Finding.of(ID, Severity.INFO, in.node(), "not applicable: no RDMA-capable NIC on PCIe",
                    "a fabric NIC at PIX/PXB/PHB where the node has a fabric", ""));
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
                        Fix.lines(Fix.note("move the HCA into a slot on the GPU's root complex or CPU socket; until then "
                                        + "pin each job to the NIC nearest its GPU and expect lower GPUDirect RDMA bandwidth"),
                                "nvidia-smi topo -m")));
            } else {
                out.add(Finding.pass(ID, subject, observed, expected));
            }
        }
        return out;
    }

    /**
     * NIC endpoints (by name) that carry the spec's compute bindings when the spec binds any for this node; else the
     * RDMA-capable ones (an RDMA device on the function, or a vendor that ships RDMA drivers).
     */
    private static Set<String> fabricNics(CheckInput in, PcieTopology topo) {
        List<PcieTopology.Endpoint> nics = topo.endpoints().stream().filter(e -> e.kind() == PcieTopology.Kind.NIC).toList();
        Set<String> named = in.bindings().stream().filter(b -> b.network().role() == ClusterSpec.Role.COMPUTE)
                .flatMap(b -> Stream.concat(Stream.of(b.binding().netdev()), b.binding().rdma().map(r -> r.device()).stream()))
                .collect(Collectors.toSet());
        Set<String> fabricAddresses = new HashSet<>();
        if (!named.isEmpty()) {
            in.inventory().rdmaDevices().stream().filter(d -> named.contains(d.name()))
                    .forEach(d -> d.pciAddress().optional().ifPresent(a -> fabricAddresses.add(pci(a))));
            in.inventory().interfaces().stream().filter(n -> named.contains(n.name()))
                    .forEach(n -> n.pciAddress().optional().ifPresent(a -> fabricAddresses.add(pci(a))));
            return nics.stream().filter(e -> named.contains(e.name()) || fabricAddresses.contains(pci(e.pciAddress())))
                    .map(PcieTopology.Endpoint::name).collect(Collectors.toSet());
        }
        in.inventory().rdmaDevices().forEach(d -> d.pciAddress().optional().ifPresent(a -> fabricAddresses.add(pci(a))));
        in.inventory().pciDevices().stream().filter(PciDevice::isRdmaCapable).forEach(d -> fabricAddresses.add(pci(d.address())));
        return nics.stream().filter(e -> fabricAddresses.contains(pci(e.pciAddress())))
                .map(PcieTopology.Endpoint::name).collect(Collectors.toSet());
    }

    /** Addresses with and without the 0000: domain compare equal. */
    private static String pci(String address) {
        String a = address.trim().toLowerCase(Locale.ROOT);
        return a.length() == 12 && a.startsWith("0000:") ? a.substring(5) : a;
    }
}
