package dev.railyard.check;

import dev.railyard.model.CheckId;
import dev.railyard.model.ClusterSpec;
import dev.railyard.model.Finding;
import dev.railyard.model.RdmaPort;
import dev.railyard.model.Severity;

import java.util.List;

/**
 * topo.rail: fewer fabric rails (RDMA ports on compute networks) than GPUs means GPUs share a NIC and inter-node
 * bandwidth per GPU drops (two rails for two GPUs keep each GPU's share; one HDR HCA for 8 H100s gives each an eighth).
 */
public final class RailCountCheck implements Check {

    static final String ID = CheckId.TOPO_RAIL.id();

    @Override
    public String id() {
        return ID;
    }

    @Override
    public List<Finding> run(CheckInput in) {
        int gpus = in.gpuCount();
        if (gpus == 0) return List.of();
        long rails;
        String what;
        if (in.spec().isPresent()) {
            rails = in.bindings().stream().filter(b -> b.network().role() == ClusterSpec.Role.COMPUTE).count();
            what = rails + " compute rails bound in the spec";
        } else {
            List<RdmaPort> active = in.ports().stream()
                    .filter(p -> p.state().optional().map(RdmaPort.PortState::isActive).orElse(false)).toList();
            rails = active.size();
            what = rails + " active RDMA ports " + active.stream().map(RdmaPort::ref).toList();
        }
        if (rails == 0) return List.of(); // no fabric at all: a single-node box, nothing to share
        String observed = gpus + " GPUs, " + what;
        String expected = ">= " + gpus + " rails (one NIC port per GPU)";
        List<String> unread = in.possibleUnreadGpus();
        if (!unread.isEmpty()) {
            return List.of(Finding.of(ID, Severity.UNKNOWN, in.node(), observed + "; PCI identity unreadable, may be GPUs: "
                    + String.join(", ", unread), expected, ""));
        }
        if (rails >= gpus) return List.of(Finding.pass(ID, in.node(), observed, expected));
        return List.of(Finding.of(ID, Severity.WARN, in.node(), observed, expected,
                Fix.lines(Fix.note("GPUs share " + rails + " NIC port(s): add HCAs (one per GPU, under the GPU's PCIe "
                        + "switch), or cable and address the unused ports as extra rails"), "rdma link show")));
    }
}
