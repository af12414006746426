package dev.railyard.check;

import dev.railyard.check.rules.NetCarrierRule;
import dev.railyard.model.CheckId;
import dev.railyard.model.Finding;
import dev.railyard.model.NetInterface;

import java.util.ArrayList;
import java.util.List;

/**
 * net.carrier on one snapshot: each physical NIC's carrier_changes since boot, judged by {@link NetCarrierRule};
 * whether it is rising is the agent's flap detector's job.
 */
public final class CarrierCheck implements Check {

    static final String ID = CheckId.NET_CARRIER.id();

    @Override
    public String id() {
        return ID;
    }

    @Override
    public List<Finding> run(CheckInput in) {
        List<Finding> out = new ArrayList<>();
        for (NetInterface nd : in.inventory().interfaces()) {
            if (!nd.pciAddress().isPresent()) continue; // loopback, bridges, veths: flaps there are not cabling
            out.add(NetCarrierRule.sinceBoot(nd.name(), nd.carrierChanges()).on(nd.name()));
        }
        return out;
    }
}
