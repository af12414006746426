package dev.railyard.diagnose;

import dev.railyard.bench.TextLines;
import dev.railyard.bench.ibtools.GidEntry;
import dev.railyard.bench.ibtools.ShowGids;
import dev.railyard.bench.ibtools.ShowGidsParser;
import dev.railyard.check.rules.RoceGidRule;
import dev.railyard.model.RdmaPort.Gid;
import dev.railyard.model.RdmaPort.GidType;
import dev.railyard.model.Reading;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * show_gids: each port's rows as the facts of its GID table, judged by {@link RoceGidRule} as the table read from
 * sysfs is; no GIDs at all is a FAIL.
 */
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
            return List.of(new Diagnosis(RoceGidRule.noGids("no GIDs: the RDMA device has no network interface with "
                    + "an address in this namespace (a container whose CNI gave it a veth, not the RDMA netdev)")
                    .on("show_gids"), n, text.line(n), "realdata/ib-tools"));
        }
        // each port's IPv4 addresses, and the rows that carry each: the facts the sysfs GID table gives
        Map<String, List<GidEntry>> byPort = new LinkedHashMap<>();
        gids.entries().forEach(e -> byPort.computeIfAbsent(e.device() + ":" + e.port(), k -> new ArrayList<>()).add(e));
        List<Diagnosis> out = new ArrayList<>();
        byPort.forEach((ref, rows) -> {
            GidEntry first = rows.getFirst();
            Set<String> addrs = new LinkedHashSet<>();
            rows.stream().map(GidEntry::ipv4).filter(a -> !a.isEmpty()).forEach(addrs::add);
            if (addrs.isEmpty()) {
                out.add(new Diagnosis(RoceGidRule.noIpv4(first.device(), first.port(), first.netdev().isEmpty()
                        ? "its netdev" : first.netdev()).on(ref), 0, "", SOURCE));
            }
            for (String addr : addrs) {
                List<Gid> forAddr = rows.stream().filter(e -> e.ipv4().equals(addr)).map(ShowGidsRecogniser::gid).toList();
                String netdev = rows.stream().filter(e -> e.ipv4().equals(addr)).map(GidEntry::netdev)
                        .filter(d -> !d.isEmpty()).findFirst().orElse(first.device());
                out.add(new Diagnosis(RoceGidRule.forAddress(first.device(), first.port(), netdev, addr, forAddr,
                        rows.size(), Optional.empty()).on(ref), 0, "", SOURCE));
            }
        });
        return out;
    }

    private static final String SOURCE = "the rule that judges GID tables read from sysfs";

    /** A row as the sysfs GID table holds it: show_gids' VER v1 is RoCE v1, v2 RoCE v2. */
    private static Gid gid(GidEntry e) {
        Reading<GidType> type = switch (e.version()) {
            case "v1" -> Reading.of(GidType.ROCE_V1);
            case "v2" -> Reading.of(GidType.ROCE_V2);
            default -> Reading.absent("show_gids printed VER " + e.version());
        };
        return new Gid(e.index(), e.gid(), type, e.netdev().isEmpty() ? Reading.absent("not printed") : Reading.of(e.netdev()));
    }
}
