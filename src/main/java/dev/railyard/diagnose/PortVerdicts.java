package dev.railyard.diagnose;

import dev.railyard.check.rules.RdmaPortStateRule;
import dev.railyard.model.Finding;
import dev.railyard.model.RdmaPort;
import dev.railyard.model.Reading;

import java.util.Map;

/** A port the kernel log shows at INIT, judged by the port rule as a sysfs port at INIT is. */
final class PortVerdicts {

    private PortVerdicts() {
    }

    /** Judged as InfiniBand: INIT is the state a subnet manager moves a trained port out of. */
    static Diagnosis noSubnetManager(String device, int port, String subject, int n, String line) {
        RdmaPort p = PastedPorts.port(device, port, Reading.of(new RdmaPort.PortState(RdmaPort.PortState.INIT, "INIT")),
                PastedPorts.absent(), PastedPorts.absent(), Reading.of("InfiniBand"), PastedPorts.absent(),
                PastedPorts.absent(), Map.<String, Reading<Long>>of());
        Finding f = RdmaPortStateRule.judge(p, RdmaPortStateRule.Use.UNBOUND).on(subject);
        return new Diagnosis(f, n, line, "the rule that judges ports read from sysfs");
    }
}
