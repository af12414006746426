package dev.railyard.check;

import dev.railyard.model.PciDevice;
import dev.railyard.model.RdmaDevice;
import dev.railyard.model.Reading;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Why an RDMA device the spec names is not on this node, from what the PCI bus shows: an RDMA-capable NIC whose RDMA
 * driver is not loaded (the usual case: "No RDMA devices found" until modprobe mlx4_ib), a NIC with no driver at
 * all, other RDMA devices under other names, or no RDMA-capable NIC on the bus.
 */
record MissingRdmaDevice(String observed, String remediation) {

    /** The core driver that binds each vendor's RDMA NICs, for a NIC with no driver bound. */
    private static final Map<Integer, String> CORE_DRIVER = Map.of(PciDevice.VENDOR_MELLANOX, "mlx5_core");

    static MissingRdmaDevice of(CheckInput in, String device) {
        List<PciDevice> nics = in.inventory().pciDevices().stream().filter(PciDevice::isRdmaCapable)
                .filter(p -> !p.virtualFunction()).toList();
        List<RdmaDevice> rdma = in.inventory().rdmaDevices();
        Set<String> covered = rdma.stream().map(d -> d.pciAddress().orElse("")).collect(Collectors.toSet());
        List<PciDevice> uncovered = nics.stream().filter(n -> !covered.contains(n.address())).toList();
        if (!uncovered.isEmpty()) {
            PciDevice nic = uncovered.getFirst();
            if (nic.driver() instanceof Reading.Present<String>(String core)) {
                return new MissingRdmaDevice("no RDMA device " + device + ": NIC " + nic.address() + " (" + core
                        + ") has no RDMA driver loaded", KernelModuleCheck.fix(nic.driver()));
            }
            String core = CORE_DRIVER.getOrDefault(nic.vendorId(), "mlx5_core");
            return new MissingRdmaDevice("no RDMA device " + device + ": NIC " + nic.address() + " has no driver bound",
                    Fix.lines(Fix.note("ConnectX-3 uses mlx4_core and mlx4_ib instead; dmesg says why a driver did not bind"),
                            "modprobe " + core, "dmesg | grep -iE 'mlx|infiniband' | tail -n 20"));
        }
        if (!rdma.isEmpty()) {
            String names = rdma.stream().map(RdmaDevice::name).collect(Collectors.joining(", "));
            return new MissingRdmaDevice("no RDMA device " + device + " (this node has " + names + ")",
                    Fix.lines(Fix.note("the spec's binding names " + device + ", which this node does not have; "
                            + "railyard init writes the names this node uses"), "rdma link show"));
        }
        return new MissingRdmaDevice("no RDMA device " + device + " and no RDMA-capable NIC on the PCI bus",
                Fix.lines(Fix.note("the NIC is not seated or is disabled in the BIOS, or this is not the node the spec "
                        + "means (--node)"), "lspci -nn | grep -iE 'ethernet|infiniband|network'"));
    }
}
