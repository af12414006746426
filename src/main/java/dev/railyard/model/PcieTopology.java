package dev.railyard.model;

import java.util.List;

/** GPUs and NICs on PCIe and, for every GPU–NIC pair, the affinity class nvidia-smi topo -m would print. */
public record PcieTopology(List<Endpoint> endpoints, List<Pair> pairs) {

    public PcieTopology {
        endpoints = List.copyOf(endpoints);
        pairs = List.copyOf(pairs);
    }

    public enum Kind { GPU, NIC }

    /** name: "GPU0" for GPUs, the RDMA device (mlx5_0) or netdev for NICs. */
    public record Endpoint(Kind kind, String name, String pciAddress, Reading<Integer> numaNode, Reading<PcieLink> link) {}

    public record Pair(String gpu, String nic, Affinity affinity) {}

    /** As defined by nvidia-smi topo -m, nearest first. */
    public enum Affinity {
        /** at most a single PCIe bridge (same PCIe switch) */
        PIX,
        /** multiple PCIe bridges, without the host bridge */
        PXB,
        /** a PCIe host bridge (typically the CPU) */
        PHB,
        /** the interconnect between PCIe host bridges within a NUMA node */
        NODE,
        /** the SMP interconnect between NUMA nodes (e.g. QPI/UPI) */
        SYS
    }
}
