package dev.railyard.collect;

import dev.railyard.model.Gpu;
import dev.railyard.model.GpuInventory;
import dev.railyard.model.NetInterface;
import dev.railyard.model.PciDevice;
import dev.railyard.model.PcieLink;
import dev.railyard.model.PcieTopology;
import dev.railyard.model.PcieTopology.Endpoint;
import dev.railyard.model.PcieTopology.Kind;
import dev.railyard.model.PcieTopology.Pair;
import dev.railyard.model.RdmaDevice;
import dev.railyard.model.Reading;
import dev.railyard.platform.NaturalOrder;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** GPU–NIC PCIe affinity (PIX/PXB/PHB/NODE/SYS) from the PCI tree; pure, no I/O. */
public final class TopologyBuilder {

    public PcieTopology build(List<PciDevice> pci, GpuInventory gpu, List<RdmaDevice> rdma, List<NetInterface> net) {
        Map<String, PciDevice> byAddress = new HashMap<>();
        for (PciDevice d : pci) byAddress.put(PciAddress.normalize(d.address()), d);

        List<Endpoint> gpus = gpuEndpoints(pci, gpu, byAddress);
        List<Endpoint> nics = nicEndpoints(pci, rdma, net);
        List<Pair> pairs = new ArrayList<>();
        for (Endpoint g : gpus) {
            PciDevice gd = byAddress.get(g.pciAddress());
            if (gd == null) continue;
            for (Endpoint n : nics) {
                Optional<PcieTopology.Affinity> a = PcieAffinity.between(gd, byAddress.get(n.pciAddress()));
                a.ifPresent(affinity -> pairs.add(new Pair(g.name(), n.name(), affinity)));
            }
        }
        List<Endpoint> endpoints = new ArrayList<>(gpus);
        endpoints.addAll(nics);
        return new PcieTopology(endpoints, pairs);
    }

    /** GPUs in GpuInventory order (NVML's index); without an inventory, NVIDIA display functions by address. */
    private static List<Endpoint> gpuEndpoints(List<PciDevice> pci, GpuInventory gpu, Map<String, PciDevice> byAddress) {
        List<Endpoint> out = new ArrayList<>();
        if (!gpu.gpus().isEmpty()) {
            for (Gpu g : gpu.gpus()) {
                String address = PciAddress.normalize(g.pciAddress());
                PciDevice d = byAddress.get(address);
                out.add(d == null
                        ? new Endpoint(Kind.GPU, "GPU" + g.index(), address,
                                Reading.absent("GPU not found in sys/bus/pci"), g.pcieLink())
                        : endpoint(Kind.GPU, "GPU" + g.index(), d));
            }
            return out;
        }
        List<PciDevice> found = pci.stream().filter(PciDevice::isNvidiaGpu)
                .sorted(Comparator.comparing(d -> PciAddress.normalize(d.address()))).toList();
        for (int i = 0; i < found.size(); i++) out.add(endpoint(Kind.GPU, "GPU" + i, found.get(i)));
        return out;
    }

    /** Network and InfiniBand physical functions in address order, named as nvidia-smi's NIC legend would. */
    private static List<Endpoint> nicEndpoints(List<PciDevice> pci, List<RdmaDevice> rdma, List<NetInterface> net) {
        Map<String, String> rdmaByAddress = new HashMap<>();
        for (RdmaDevice r : rdma) {
            r.pciAddress().optional().ifPresent(a -> rdmaByAddress.merge(PciAddress.normalize(a), r.name(),
                    TopologyBuilder::firstByName));
        }
        Map<String, String> netByAddress = new HashMap<>();
        for (NetInterface n : net) {
            n.pciAddress().optional().ifPresent(a -> netByAddress.merge(PciAddress.normalize(a), n.name(),
                    TopologyBuilder::firstByName));
        }
        return pci.stream().filter(d -> d.isNetwork() && !d.virtualFunction())
                .sorted(Comparator.comparing(d -> PciAddress.normalize(d.address())))
                .map(d -> {
                    String address = PciAddress.normalize(d.address());
                    String name = rdmaByAddress.getOrDefault(address, netByAddress.getOrDefault(address, address));
                    return endpoint(Kind.NIC, name, d);
                })
                .toList();
    }

    private static String firstByName(String a, String b) {
        return NaturalOrder.INSTANCE.compare(a, b) <= 0 ? a : b;
    }

    private static Endpoint endpoint(Kind kind, String name, PciDevice d) {
        Reading<PcieLink> link = d.link();
        return new Endpoint(kind, name, PciAddress.normalize(d.address()), d.numaNode(), link);
    }
}
