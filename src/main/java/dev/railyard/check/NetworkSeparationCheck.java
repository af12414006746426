package dev.railyard.check;

import dev.railyard.model.CheckId;
import dev.railyard.model.ClusterSpec;
import dev.railyard.model.Finding;
import dev.railyard.model.Severity;
import dev.railyard.model.Ipv4Cidr;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * cluster.network.separation: compute traffic must not share the management network: not the same subnet, not the
 * same netdev, not an address inside the management subnet. A 1 GbE management port carrying NCCL turns a 200 Gb/s
 * all-reduce into a crawl, and heavy traffic there cuts off ssh and Slurm.
 */
public final class NetworkSeparationCheck implements ClusterCheck {

    static final String ID = CheckId.CLUSTER_NETWORK_SEPARATION.id();

    @Override
    public String id() {
        return ID;
    }

    @Override
    public List<Finding> run(ClusterInput in) {
        List<ClusterSpec.Network> mgmt = in.spec().networks().stream().filter(n -> n.role() == ClusterSpec.Role.MANAGEMENT).toList();
        List<ClusterSpec.Network> compute = in.spec().networks().stream().filter(n -> n.role() == ClusterSpec.Role.COMPUTE).toList();
        List<Finding> out = new ArrayList<>();
        if (mgmt.isEmpty() || compute.isEmpty()) return out;
        for (ClusterSpec.Network c : compute) {
            int before = out.size();
            for (ClusterSpec.Network m : mgmt) {
                Optional<Ipv4Cidr> ms = m.subnet().flatMap(Ipv4Cidr::parse);
                Optional<Ipv4Cidr> cs = c.subnet().flatMap(Ipv4Cidr::parse);
                if (ms.isPresent() && cs.isPresent() && overlap(ms.get(), cs.get())) {
                    out.add(Finding.of(ID, Severity.FAIL, c.name(), "subnet " + cs.get() + " overlaps " + m.name() + " " + ms.get(),
                            "a compute subnet apart from the management one",
                            "# in the spec, give " + c.name() + " its own subnet (e.g. 10.0.0.0/24 and 10.0.1.0/24 for two rails beside a 192.168.1.0/24 management network)"));
                    continue;
                }
                for (Map.Entry<String, ClusterSpec.Binding> b : c.bind().entrySet()) {
                    String node = b.getKey();
                    ClusterSpec.Binding mb = m.bind().get(node);
                    if (mb != null && mb.netdev().equals(b.getValue().netdev())) {
                        out.add(Finding.of(ID, Severity.FAIL, c.name() + " " + node, "netdev " + mb.netdev() + " carries both "
                                        + c.name() + " and " + m.name(), "compute traffic on its own NIC",
                                "# in the spec, bind " + c.name() + " on " + node + " to a fabric NIC; on " + node + ", its NICs:\nip -br link"));
                    }
                    Optional<Integer> addr = b.getValue().address().flatMap(a -> Ipv4Cidr.parseAddress(ClusterAddressesCheck.bare(a)));
                    if (addr.isPresent() && ms.isPresent() && ms.get().contains(addr.get())) {
                        out.add(Finding.of(ID, Severity.FAIL, c.name() + " " + node, "address "
                                        + b.getValue().address().get() + " is inside " + m.name() + " " + ms.get(),
                                "an address outside the management subnet", "# in the spec, pick an address in " + c.subnet().orElse("the compute subnet")));
                    }
                }
            }
            if (out.size() == before) {
                out.add(Finding.pass(ID, c.name(), "apart from " + String.join(", ", mgmt.stream().map(ClusterSpec.Network::name).toList()),
                        "compute traffic off the management network"));
            }
        }
        return out;
    }

    private static boolean overlap(Ipv4Cidr a, Ipv4Cidr b) {
        int prefix = Math.min(a.prefix(), b.prefix());
        Ipv4Cidr wider = new Ipv4Cidr(a.bits(), prefix);
        return wider.contains(b.bits());
    }
}
