package dev.railyard.check;

import dev.railyard.check.rules.RdmaPortPhysRule;
import dev.railyard.check.rules.RdmaPortStateRule;
import dev.railyard.check.rules.SubnetManagerRule;
import dev.railyard.model.CheckId;
import dev.railyard.model.Finding;
import dev.railyard.model.RdmaPort;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;
import dev.railyard.model.Unlisted;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * rdma.port.state, rdma.port.phys and rdma.ib.sm for every port of the node, judged by their rules
 * ({@link RdmaPortStateRule}, {@link RdmaPortPhysRule}, {@link SubnetManagerRule}). A port the spec binds that is not
 * on the node at all is an rdma.port.state FAIL naming the likely cause (an RDMA driver not loaded), or UNKNOWN when
 * sys/class/infiniband could not be listed.
 */
public final class RdmaPortCheck implements Check {

    static final String STATE = CheckId.RDMA_PORT_STATE.id();
    static final String PHYS = CheckId.RDMA_PORT_PHYS.id();
    static final String SM = CheckId.RDMA_IB_SM.id();

    @Override
    public String id() {
        return "rdma.port";
    }

    @Override
    public List<String> ids() {
        return List.of("rdma.port", SM);
    }

    @Override
    public List<Finding> run(CheckInput in) {
        List<Finding> out = new ArrayList<>();
        for (RdmaPort p : in.ports()) {
            RdmaPortStateRule.Use use = in.bindingFor(p).isPresent() ? RdmaPortStateRule.Use.BOUND
                    : in.spec().isPresent() ? RdmaPortStateRule.Use.UNUSED_BY_SPEC : RdmaPortStateRule.Use.UNBOUND;
            out.add(state(p, use));
            out.add(phys(p, use));
            sm(p).ifPresent(out::add);
        }
        out.addAll(missing(in));
        return out;
    }

    /** A port the spec binds that this node does not have: FAIL, with the likely cause rather than a spec edit. */
    private static List<Finding> missing(CheckInput in) {
        List<Finding> out = new ArrayList<>();
        for (CheckInput.Bound b : in.bindings()) {
            if (b.binding().rdma().isEmpty()) continue;
            var ref = b.binding().rdma().get();
            String subject = ref.device() + ":" + ref.port();
            String expected = "port of network " + b.network().name();
            boolean portThere = in.ports().stream().anyMatch(p -> p.device().equals(ref.device()) && p.port() == ref.port());
            if (portThere) continue;
            var unlisted = in.inventory().unlisted(Unlisted.Subsystem.INFINIBAND);
            if (unlisted.isPresent()) {
                // nothing under sys/class/infiniband could be seen, so the port is not known to be missing
                out.add(Finding.unknown(STATE, subject, Reading.failed(unlisted.get().path(), unlisted.get().cause()),
                        expected));
                continue;
            }
            var device = in.inventory().rdmaDevices().stream().filter(d -> d.name().equals(ref.device())).findFirst();
            if (device.isPresent()) {
                String ports = device.get().ports().stream().map(p -> String.valueOf(p.port())).collect(Collectors.joining(", "));
                out.add(Finding.of(STATE, Severity.FAIL, subject, ref.device() + " has no port " + ref.port()
                                + " (ports: " + (ports.isEmpty() ? "none" : ports) + ")", expected,
                        Fix.lines(Fix.note("a single-port card, or the spec means another port"),
                                "ls " + ShellWord.of("/sys/class/infiniband/" + ref.device() + "/ports/"))));
                continue;
            }
            MissingRdmaDevice why = MissingRdmaDevice.of(in, ref.device());
            out.add(Finding.of(STATE, Severity.FAIL, subject, why.observed(), expected, why.remediation()));
        }
        return out;
    }

    private static Finding state(RdmaPort p, RdmaPortStateRule.Use use) {
        return RdmaPortStateRule.judge(p, use).on(p.ref());
    }

    private static Finding phys(RdmaPort p, RdmaPortStateRule.Use use) {
        return RdmaPortPhysRule.judge(p, use).on(p.ref());
    }

    private static java.util.Optional<Finding> sm(RdmaPort p) {
        return SubnetManagerRule.judge(p).map(v -> v.on(p.ref()));
    }
}
