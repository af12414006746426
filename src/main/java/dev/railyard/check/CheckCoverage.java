package dev.railyard.check;

import dev.railyard.model.NotJudged;
import dev.railyard.model.PciDevice;
import dev.railyard.model.Unlisted;
import dev.railyard.model.Reading;

import java.util.ArrayList;
import java.util.List;

/**
 * What a node check run could not judge: GPUs when none were found, the fabric when no RDMA device was, Xid errors
 * when the kernel log was unreadable, and the cluster when no spec was given. Pure, like the checks.
 */
public final class CheckCoverage {

    private CheckCoverage() {
    }

    public static List<NotJudged> of(CheckInput in) {
        List<NotJudged> out = new ArrayList<>();
        if (in.gpuCount() == 0) {
            Reading<?> nvml = in.inventory().gpu().nvml();
            out.add(new NotJudged("gpu", "no GPU found" + (nvml.isPresent() ? "" : ": " + nvml.describe())
                    + "; ECC, temperature, throttling, PCIe, NVLink and Xid checks did not run"));
        }
        var unlisted = in.inventory().unlisted(Unlisted.Subsystem.INFINIBAND);
        if (unlisted.isPresent()) {
            out.add(new NotJudged("rdma", unlisted.get().describe()
                    + "; port, rate, GID, subnet manager and counter checks did not run"));
        } else if (in.inventory().rdmaDevices().isEmpty()) {
            boolean nic = in.inventory().pciDevices().stream().anyMatch(PciDevice::isRdmaCapable);
            out.add(new NotJudged("rdma", "no RDMA device in /sys/class/infiniband"
                    + (nic ? " (an RDMA-capable NIC is on PCI: see host.module.rdma)" : "")
                    + "; port, rate, GID, subnet manager and counter checks did not run"));
        }
        if (!in.inventory().xidEvents().isPresent() && in.gpuCount() > 0) {
            out.add(new NotJudged("kernel-log", "Xid errors not judged: " + in.inventory().xidEvents().describe()));
        }
        if (in.spec().isEmpty()) {
            out.add(new NotJudged("spec", "no --spec: GPU count, rates, MTUs, addresses and rails were judged against "
                    + "defaults, not your cluster (railyard init > cluster.yaml writes one)"));
        } else if (in.bindings().isEmpty()) {
            out.add(new NotJudged("spec", "the spec binds no network to node " + in.node()
                    + ": its ports, netdevs and addresses were not judged against it"));
        }
        return out;
    }
}
