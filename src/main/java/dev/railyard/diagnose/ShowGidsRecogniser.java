package dev.railyard.diagnose;

import dev.railyard.bench.TextLines;
import dev.railyard.bench.ibtools.GidEntry;
import dev.railyard.bench.ibtools.ShowGids;
import dev.railyard.bench.ibtools.ShowGidsParser;
import dev.railyard.check.Fix;
import dev.railyard.model.CheckId;
import dev.railyard.model.Severity;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** show_gids: no GIDs at all is a FAIL; otherwise the RoCE v2 IPv4 index per device, which is what to pass. */
public record ShowGidsRecogniser() implements Recogniser {

    @Override
    public ToolKind tool() {
        return ToolKind.SHOW_GIDS;
    }

    @Override
    public List<String> signatureLiterals() {
        return List.of("INDEX", "GID");
    }

    @Override
    public boolean mayRecognise(java.util.Set<String> present) {
        return present.containsAll(signatureLiterals());
    }

    @Override
    public boolean recognises(TextLines text) {
        return text.lines().stream().anyMatch(l -> l.contains("DEV") && l.matches("^\\s*DEV\\s+PORT\\s+INDEX\\s+GID.*"));
    }

    @Override
    public ToolReading read(TextLines text, DiagnoseTargets targets) {
        ShowGids gids = new ShowGidsParser().parse(text.joined());
        return new ToolReading(diagnose(text, gids), Parsed.of(gids, List.of()));
    }

    private static List<Diagnosis> diagnose(TextLines text, ShowGids gids) {
        if (gids.entries().isEmpty()) {
            int n = Math.max(text.find("n_gids_found"), text.firstNonBlank());
            return List.of(Diagnosis.of(CheckId.RDMA_ROCE_GID.id(), Severity.FAIL, "show_gids", "no GIDs: the RDMA device has no network "
                    + "interface with an address in this namespace (a container whose CNI gave it a veth, not the "
                    + "RDMA netdev)", Fix.lines(Fix.note("the RDMA devices, their netdevs, and the addresses "
                    + "here: a GID needs the RDMA device's netdev in this namespace with an IP on it"),
                    "rdma link show", "ip -br addr", Fix.note("in a pod, attach the RDMA netdev with the SR-IOV, "
                    + "macvlan or host-device CNI; then show_gids lists its RoCE v1 and v2 rows")),
                    n, text.line(n), "realdata/ib-tools"));
        }
        Set<String> devices = new LinkedHashSet<>();
        gids.entries().forEach(e -> devices.add(e.device()));
        List<Diagnosis> out = new ArrayList<>();
        for (String dev : devices) {
            var v2 = gids.roceV2Ipv4(dev);
            if (v2.isPresent()) {
                GidEntry e = v2.get();
                out.add(Diagnosis.of(CheckId.RDMA_ROCE_GID.id(), Severity.INFO, dev + " port " + e.port(),
                        "RoCE v2 GID for " + e.ipv4() + " on " + e.netdev() + " is index " + e.index(),
                        "export NCCL_IB_GID_INDEX=" + e.index() + "\n# and --gid-index=" + e.index() + " for perftest",
                        0, "", "two V100 nodes on ConnectX-3 Pro RoCE"));
            } else {
                out.add(Diagnosis.of(CheckId.RDMA_ROCE_GID.id(), Severity.WARN, dev, "no RoCE v2 GID with an IPv4 address",
                        "# give the device's netdev an IPv4 address (RoCE v2 over IPv4 needs it); the addresses now:\n"
                                + "ip -br addr", 0, "", "two V100 nodes on ConnectX-3 Pro RoCE"));
            }
        }
        return out;
    }
}
