package dev.railyard.diagnose;

import dev.railyard.model.CheckId;
import dev.railyard.model.Severity;

/** The port verdicts ibstat, ibv_devinfo and the kernel log share, so each says the same thing the same way. */
final class PortVerdicts {

    private PortVerdicts() {
    }

    static Diagnosis noSubnetManager(String subject, int n, String line) {
        return Diagnosis.of(CheckId.RDMA_PORT_STATE.id(), Severity.FAIL, subject,
                "the port is stuck at INIT: no subnet manager is running on the fabric",
                "run exactly one OpenSM: install opensm and 'sudo systemctl enable --now opensm'", n, line,
                "seed 003");
    }

    static Diagnosis down(String subject, String state, int n, String line) {
        return Diagnosis.of(CheckId.RDMA_PORT_STATE.id(), Severity.FAIL, subject, "port is " + state + ": no link (no cable, bad cable, or the "
                + "peer port is down)", "check the cable and the switch/peer port; for perftest use a port that is "
                + "Active with --ib-port", n, line, "seed 000");
    }
}
