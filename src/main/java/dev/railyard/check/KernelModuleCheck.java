package dev.railyard.check;

import dev.railyard.model.CheckId;
import dev.railyard.model.Finding;
import dev.railyard.model.PciDevice;
import dev.railyard.model.RdmaDevice;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * host.module.rdma: an RDMA-capable NIC on PCI with no RDMA device ("No RDMA devices found" -> modprobe mlx4_ib,
 * seed 000). host.module.peermem: GPUs and RDMA ports but no nvidia_peermem, so no GPUDirect RDMA (seeds 002, 003).
 */
public final class KernelModuleCheck implements Check {

    static final String RDMA = CheckId.HOST_MODULE_RDMA.id();
    static final String PEERMEM = CheckId.HOST_MODULE_PEERMEM.id();
    static final String PEERMEM_FIX = "modprobe nvidia-peermem   and persist: echo nvidia-peermem | sudo tee "
            + "/etc/modules-load.d/nvidia-peermem.conf";

    /** The RDMA (ib) driver that goes with each NIC core driver. */
    private static final Map<String, String> IB_DRIVER = Map.of(
            "mlx4_core", "mlx4_ib", "mlx5_core", "mlx5_ib", "bnxt_en", "bnxt_re", "ice", "irdma", "qede", "qedr");

    @Override
    public String id() {
        return "host.module";
    }

    @Override
    public List<Finding> run(CheckInput in) {
        List<Finding> out = new ArrayList<>(rdmaDriver(in));
        out.addAll(peermem(in));
        return out;
    }

    private List<Finding> rdmaDriver(CheckInput in) {
        List<PciDevice> nics = in.inventory().pciDevices().stream().filter(PciDevice::isRdmaCapable).toList();
        if (nics.isEmpty()) return List.of();
        List<RdmaDevice> rdma = in.inventory().rdmaDevices();
        boolean addressesKnown = !rdma.isEmpty() && rdma.stream().allMatch(d -> d.pciAddress().isPresent());
        Set<String> covered = rdma.stream().map(d -> d.pciAddress().orElse("")).collect(Collectors.toSet());
        List<Finding> out = new ArrayList<>();
        for (PciDevice nic : nics) {
            String subject = nic.address() + " (" + nic.driver().orElse("no driver") + ")";
            boolean hasRdma = addressesKnown ? covered.contains(nic.address()) : !rdma.isEmpty();
            if (hasRdma) {
                out.add(Finding.pass(RDMA, subject, "RDMA device present", "an RDMA device for the NIC"));
            } else {
                out.add(Finding.of(RDMA, Severity.FAIL, subject, "no device in /sys/class/infiniband for this NIC",
                        "an RDMA device for the NIC", fix(nic.driver())));
            }
        }
        return out;
    }

    private static String fix(Reading<String> coreDriver) {
        return coreDriver.optional().map(IB_DRIVER::get).map(ib -> "modprobe " + ib)
                .orElse("load the NIC's RDMA driver (modprobe mlx4_ib / mlx5_ib for Mellanox ConnectX) and check "
                        + coreDriver.describe());
    }

    private List<Finding> peermem(CheckInput in) {
        if (in.gpuCount() == 0 || in.ports().isEmpty()) return List.of();
        String subject = in.node();
        String expected = "nvidia_peermem loaded (GPUDirect RDMA)";
        Reading<Map<String, Boolean>> r = in.inventory().host().modules();
        if (!(r instanceof Reading.Present<Map<String, Boolean>>(Map<String, Boolean> loaded))) {
            return List.of(Finding.unknown(PEERMEM, subject, r, expected));
        }
        if (loaded.getOrDefault("nvidia_peermem", false)) {
            return List.of(Finding.pass(PEERMEM, subject, "nvidia_peermem loaded", expected));
        }
        if (loaded.getOrDefault("nv_peer_mem", false)) {
            // The old Mellanox module still gives GPUDirect; worth knowing, not worth failing.
            return List.of(Finding.of(PEERMEM, Severity.INFO, subject, "nv_peer_mem (legacy) loaded", expected, ""));
        }
        return List.of(Finding.of(PEERMEM, Severity.WARN, subject,
                in.gpuCount() + " GPUs and " + in.ports().size() + " RDMA ports, nvidia_peermem not loaded",
                expected, PEERMEM_FIX));
    }
}
