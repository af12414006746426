package dev.railyard.check;

import dev.railyard.model.CheckId;
import dev.railyard.model.Finding;
import dev.railyard.model.NetInterface;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;

import java.util.ArrayList;
import java.util.List;

/**
 * rdma.lag: an RDMA netdev in a bond (or a bond carrying RDMA ports, mlx5_bond_0). One RDMA flow (one QP) uses one
 * member link, so a 2x40G LAG gives a single job 40G; two separate rails give it both.
 */
public final class RdmaLagCheck implements Check {

    static final String ID = CheckId.RDMA_LAG.id();
    static final String FIX = Fix.lines(
            Fix.note("one flow uses one bond member: take the ports out of the bond and give each its own subnet "
                    + "(a rail), then list both in NCCL_IB_HCA"),
            "grep -rl bonds: /etc/netplan/");

    @Override
    public String id() {
        return ID;
    }

    @Override
    public List<Finding> run(CheckInput in) {
        List<Finding> out = new ArrayList<>();
        for (NetInterface nd : in.inventory().interfaces()) {
            if (nd.rdmaPorts().isEmpty()) continue;
            String ports = nd.rdmaPorts().toString();
            if (!nd.bondSlaves().isEmpty()) {
                out.add(Finding.of(ID, Severity.WARN, nd.name(), "bond of " + nd.bondSlaves() + " carrying RDMA " + ports,
                        "one RDMA netdev per link", FIX));
            } else if (nd.bondMaster() instanceof Reading.Present<String>(String master)) {
                out.add(Finding.of(ID, Severity.WARN, nd.name(), "member of bond " + master + ", RDMA " + ports,
                        "one RDMA netdev per link", FIX));
            } else if (nd.bondMaster() instanceof Reading.Failed<String> f) {
                out.add(Finding.unknown(ID, nd.name(), f, "not a bond member"));
            } else {
                out.add(Finding.pass(ID, nd.name(), "not bonded, RDMA " + ports, "one RDMA netdev per link"));
            }
        }
        return out;
    }
}
