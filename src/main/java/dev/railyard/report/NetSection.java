package dev.railyard.report;

import dev.railyard.model.NetInterface;

import java.util.List;
import java.util.stream.Collectors;

/** Network interfaces as one table; why a cell is empty is written once below it. */
final class NetSection {

    private NetSection() {
    }

    static void appendTo(StringBuilder out, List<NetInterface> interfaces, int width) {
        out.append("Network (").append(interfaces.size()).append(" interfaces)\n");
        if (interfaces.isEmpty()) {
            out.append("  none found (no interfaces under sys/class/net)\n");
            return;
        }
        Footnotes notes = new Footnotes();
        TextTable table = new TextTable("NAME", "STATE", "CARRIER", "MTU", "SPEED", "MAC", "DRIVER", "ADDRESSES",
                "BOND", "IPOIB", "RDMA");
        for (NetInterface n : interfaces) {
            notes.relativeTo("sys/class/net/" + n.name() + "/");
            table.row(n.name(),
                    notes.cell(n.operState()),
                    notes.cell(n.carrier(), c -> c ? "yes" : "no"),
                    notes.cell(n.mtu()),
                    notes.cell(n.speedMbps(), NetSection::speed),
                    notes.cell(n.mac()),
                    notes.cell(n.driver()),
                    notes.cell(n.addresses(), a -> a.isEmpty() ? "none" : String.join(", ", a)),
                    n.bondSlaves().isEmpty() ? notes.cell(n.bondMaster(), m -> "in " + m)
                            : "master of " + String.join(",", n.bondSlaves()),
                    notes.cell(n.ipoibMode()),
                    n.rdmaPorts().isEmpty() ? "-" : n.rdmaPorts().stream().map(Object::toString)
                            .collect(Collectors.joining(",")));
        }
        table.appendTo(out, "  ", width);
        if (notes.shortened()) out.append("  paths are under sys/class/net/NAME/\n");
        for (String line : notes.lines()) out.append("  ").append(line).append('\n');
    }

    /** sysfs speed is in Mb/s: 100000 -> "100G", 1000 -> "1G", 100 -> "100M". */
    static String speed(long mbps) {
        if (mbps >= 1000 && mbps % 1000 == 0) return mbps / 1000 + "G";
        if (mbps >= 1000) return ReadingText.number(mbps / 1000.0) + "G";
        return mbps + "M";
    }
}
