package dev.railyard.diagnose;

import dev.railyard.check.Fix;
import dev.railyard.model.CheckId;
import dev.railyard.model.Severity;

/** The port verdicts ibstat, ibv_devinfo and the kernel log share, so each says the same thing the same way. */
final class PortVerdicts {

    private PortVerdicts() {
    }

    static Diagnosis noSubnetManager(String subject, int n, String line) {
        return Diagnosis.of(CheckId.RDMA_PORT_STATE.id(), Severity.FAIL, subject,
                "the port is stuck at INIT: no subnet manager is running on the fabric",
                Fix.START_SUBNET_MANAGER, n, line, "Dell R720/R730 nodes on ConnectX-4 InfiniBand QDR");
    }

    static Diagnosis down(String subject, String state, int n, String line) {
        return Diagnosis.of(CheckId.RDMA_PORT_STATE.id(), Severity.FAIL, subject, "port is " + state + ": no link (no cable, bad cable, or the "
                + "peer port is down)", "# check the cable of " + subject + " and the switch or peer port; for perftest "
                + "pass a port that shows PORT_ACTIVE with --ib-port:\nibv_devinfo | grep -E 'hca_id|port:|state'", n, line,
                "two V100 nodes on ConnectX-3 Pro RoCE");
    }

    /**
     * A port that is down beside an Active port of the same adapter: a dual-port card with one cable is the usual
     * case, so it is a WARN naming how to tell, not a FAIL.
     */
    static Diagnosis unused(String subject, String state, int n, String line) {
        return Diagnosis.of(CheckId.RDMA_PORT_STATE.id(), Severity.WARN, subject, "port is " + state + " while "
                + "another port of the same adapter is Active: an unused port (no cable) is normal; if this port "
                + "should carry traffic, it has no link", "# if this port is meant to be cabled: check its cable and "
                + "the switch port, then\nibv_devinfo | grep -E 'hca_id|port:|state'", n, line,
                "dual-port adapters with one port cabled");
    }
}
