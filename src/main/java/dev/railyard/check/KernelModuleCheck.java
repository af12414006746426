package dev.railyard.check;

import dev.railyard.check.rules.HostModulePeermemRule;
import dev.railyard.check.rules.HostModuleRdmaRule;
import dev.railyard.model.CheckId;
import dev.railyard.model.Finding;
import dev.railyard.model.PciDevice;
import dev.railyard.model.RdmaDevice;
import dev.railyard.model.Reading;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * host.module.rdma (each RDMA-capable NIC on PCI and whether an RDMA device sits on it) and host.module.peermem (the
 * loaded modules of a node with GPUs and RDMA ports), judged by {@link HostModuleRdmaRule} and
 * {@link HostModulePeermemRule}.
 */
public final class KernelModuleCheck implements Check {

    static final String RDMA = CheckId.HOST_MODULE_RDMA.id();
    static final String PEERMEM = CheckId.HOST_MODULE_PEERMEM.id();
    static final String PEERMEM_FIX = HostModulePeermemRule.FIX;

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
            Optional<String> unplacedWhy = unplaced.stream().findFirst()
                    .map(d -> "PCI function of " + d.name() + " not known: " + d.pciAddress().describe());
            out.add(HostModuleRdmaRule.nic(covered.contains(nic.address()), nic.unreadableIds(), unplacedWhy,
                    nic.driver()).on(subject));
        }
        return out;
    }

    /** The RDMA driver to load for a NIC bound to {@code coreDriver}, now and at boot. */
    static String fix(Reading<String> coreDriver) {
        return HostModuleRdmaRule.driverFix(coreDriver);
    }

    private List<Finding> peermem(CheckInput in) {
        if (in.gpuCount() == 0 || in.ports().isEmpty()) return List.of();
        return List.of(HostModulePeermemRule.judge(in.gpuCount(), in.ports().size(), in.inventory().host().modules())
                .on(in.node()));
    }
}
