package dev.railyard.collect;

import dev.railyard.model.GpuInventory;
import dev.railyard.model.PciDevice;
import dev.railyard.model.PcieTopology;
import dev.railyard.model.RdmaDevice;
import dev.railyard.model.NetInterface;

import java.util.List;

/** GPU–NIC PCIe affinity (PIX/PXB/PHB/NODE/SYS) from the PCI tree; pure, no I/O. */
public final class TopologyBuilder {
    public PcieTopology build(List<PciDevice> pci, GpuInventory gpu, List<RdmaDevice> rdma, List<NetInterface> net) {
        return new PcieTopology(List.of(), List.of()); // TODO(helper: pci+topology+host)
    }
}
