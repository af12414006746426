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
 * host.module.rdma: an RDMA-capable NIC on PCI with no RDMA device ("No RDMA devices found" until modprobe mlx4_ib or
 * mlx5_ib). host.module.peermem: GPUs and RDMA ports but no nvidia_peermem, so no GPUDirect RDMA: NCCL copies through host memory.
 */
public final class KernelModuleCheck implements Check {

    static final String RDMA = CheckId.HOST_MODULE_RDMA.id();
    static final String PEERMEM = CheckId.HOST_MODULE_PEERMEM.id();
    static final String PEERMEM_FIX = Fix.module("nvidia-peermem");

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
        List<RdmaDevice> rdma = in.inventory().rdmaDevices();
        Set<String> covered = rdma.stream().flatMap(d -> d.pciAddress().optional().stream()).collect(Collectors.toSet());
        // a function whose ids could not be read is judged too when it may be an RDMA NIC or carries an RDMA device
        List<PciDevice> nics = in.inventory().pciDevices().stream().filter(d -> d.isRdmaCapable() || d.mayBeRdmaNic()
                || !d.unreadableIds().isEmpty() && covered.contains(d.address())).toList();
        if (nics.isEmpty()) return List.of();
        // an RDMA device whose PCI function could not be read may be this NIC's, or another's: not known either way
        List<RdmaDevice> unplaced = rdma.stream().filter(d -> !d.pciAddress().isPresent()).toList();
        List<Finding> out = new ArrayList<>();
        for (PciDevice nic : nics) {
            String subject = nic.address() + " (" + nic.driver().orElse("no driver") + ")";
            if (covered.contains(nic.address())) {
                out.add(Finding.pass(RDMA, subject, "RDMA device present", "an RDMA device for the NIC"));
            } else if (!nic.unreadableIds().isEmpty()) {
                out.add(new Finding(RDMA, Severity.UNKNOWN, subject, "may be an RDMA NIC without its driver: "
                        + String.join("; ", nic.unreadableIds()), "an RDMA device for the NIC", ""));
            } else if (!unplaced.isEmpty()) {
                RdmaDevice d = unplaced.getFirst();
                out.add(new Finding(RDMA, Severity.UNKNOWN, subject, "PCI function of " + d.name() + " not known: "
                        + d.pciAddress().describe(), "an RDMA device for the NIC", ""));
            } else {
                out.add(Finding.of(RDMA, Severity.FAIL, subject, "no device in /sys/class/infiniband for this NIC",
                        "an RDMA device for the NIC", fix(nic.driver())));
            }
        }
        return out;
    }

    /** The RDMA driver to load for a NIC bound to {@code coreDriver}, now and at boot. */
    static String fix(Reading<String> coreDriver) {
        return coreDriver.optional().map(IB_DRIVER::get).map(Fix::module)
                .orElse(Fix.lines(Fix.note("no known RDMA driver for NIC driver " + coreDriver.describe()
                        + "; Mellanox ConnectX-3 uses mlx4_ib, ConnectX-4 and later mlx5_ib"), "lspci -k -d 15b3:"));
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
