package dev.railyard.check;

import dev.railyard.check.rules.RdmaPortRateRule;
import dev.railyard.model.CheckId;
import dev.railyard.model.Finding;
import dev.railyard.model.RdmaPort;
import dev.railyard.model.RdmaPort.LinkRate;
import dev.railyard.model.Reading;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * rdma.port.rate on a node: each ACTIVE port with the spec's rate for the network that binds it, or without one the
 * device's sibling port it falls short of, judged by {@link RdmaPortRateRule}.
 */
public final class RdmaRateCheck implements Check {

    static final String ID = CheckId.RDMA_PORT_RATE.id();

    @Override
    public String id() {
        return ID;
    }

    @Override
    public List<Finding> run(CheckInput in) {
        List<Finding> out = new ArrayList<>();
        List<RdmaPort> ports = in.ports();
        for (RdmaPort p : ports) {
            boolean active = p.state().optional().map(RdmaPort.PortState::isActive).orElse(false);
            if (!active) continue; // a port that is down has no negotiated rate; rdma.port.state reports it
            Optional<Double> specRate = in.bindingFor(p).flatMap(b -> b.network().rateGbps());
            Optional<RdmaPort> better = p.rate() instanceof Reading.Present<LinkRate>(LinkRate rate)
                    ? ports.stream().filter(o -> o.device().equals(p.device()) && o.port() != p.port())
                            .filter(o -> RdmaPortRateRule.better(o, rate)).findFirst()
                    : Optional.empty();
            out.add(RdmaPortRateRule.judge(p, specRate, better).on(p.ref()));
        }
        return out;
    }
}
