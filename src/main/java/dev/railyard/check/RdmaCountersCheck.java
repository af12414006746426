package dev.railyard.check;

import dev.railyard.check.rules.CounterSaturationRule;
import dev.railyard.check.rules.RdmaCountersRule;
import dev.railyard.model.CheckId;
import dev.railyard.model.Finding;
import dev.railyard.model.RdmaPort;

import java.util.ArrayList;
import java.util.List;

/**
 * rdma.counters and rdma.counters.saturated for every port of the node, judged by {@link RdmaCountersRule} on one
 * snapshot (whether they are rising is the agent's detector's fact) and {@link CounterSaturationRule}.
 */
public final class RdmaCountersCheck implements Check {

    static final String ID = CheckId.RDMA_COUNTERS.id();
    static final String SATURATED = CheckId.RDMA_COUNTERS_SATURATED.id();

    @Override
    public String id() {
        return ID;
    }

    @Override
    public List<String> ids() {
        return List.of(ID, SATURATED);
    }

    @Override
    public List<Finding> run(CheckInput in) {
        List<Finding> out = new ArrayList<>();
        for (RdmaPort p : in.ports()) {
            CounterSaturationRule.judge(p).ifPresent(v -> out.add(v.on(p.ref())));
            out.add(RdmaCountersRule.snapshot(p).on(p.ref()));
        }
        return out;
    }
}
