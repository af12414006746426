package dev.railyard.report;

import dev.railyard.model.NetInterface;
import dev.railyard.model.RdmaDevice;
import dev.railyard.model.RdmaPort;
import dev.railyard.model.RdmaPort.Gid;
import dev.railyard.model.Reading;
import dev.railyard.model.ValueText;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * RDMA devices and ports. Each port gets a state line and a counter line; its GIDs follow one per line on small
 * nodes, folded into one line on big ones (more than {@value #FULL_GID_PORTS} ports) so a 9-HCA node stays readable.
 */
final class RdmaSection {

    static final int FULL_GID_PORTS = 4;

    private RdmaSection() {
    }

    static void appendTo(StringBuilder out, List<RdmaDevice> devices, List<NetInterface> interfaces) {
        int portCount = devices.stream().mapToInt(d -> d.ports().size()).sum();
        out.append("RDMA (").append(devices.size()).append(" devices, ").append(portCount).append(" ports)\n");
        if (devices.isEmpty()) {
            out.append("  none found (no devices under sys/class/infiniband)\n");
            return;
        }
        boolean foldGids = portCount > FULL_GID_PORTS;
        for (RdmaDevice d : devices) {
            String dir = "sys/class/infiniband/" + d.name() + "/";
            out.append("  ").append(d.name())
                    .append("  fw ").append(local(d.firmwareVersion(), dir))
                    .append("  guid ").append(local(d.nodeGuid(), dir))
                    .append("  board ").append(local(d.boardId(), dir))
                    .append("  type ").append(local(d.hcaType(), dir))
                    .append("  pci ").append(local(d.pciAddress(), dir)).append('\n');
            if (d.ports().isEmpty()) out.append("    no ports\n");
            for (RdmaPort p : d.ports()) port(out, p, interfaces, foldGids);
        }
    }

    private static void port(StringBuilder out, RdmaPort p, List<NetInterface> interfaces, boolean foldGids) {
        String dir = "sys/class/infiniband/" + p.device() + "/ports/" + p.port() + "/";
        StringBuilder line = new StringBuilder("    port ").append(p.port()).append("  ")
                .append(local(p.state().map(s -> s.name()), dir)).append('/')
                .append(local(p.physState().map(s -> s.name()), dir)).append("  ")
                .append(local(p.rate().map(r -> r.raw()), dir)).append("  ")
                .append(local(p.linkLayer(), dir));
        if (!p.isEthernet()) {
            line.append("  lid ").append(local(p.lid(), dir)).append("  sm_lid ").append(local(p.smLid(), dir));
        }
        line.append("  netdev ").append(netdevs(p, interfaces));
        out.append(line).append('\n');
        out.append("      ").append(counters(p)).append('\n');
        gids(out, p, foldGids, dir);
    }

    /**
     * The device or port is named at the start of the line, so paths below it are written relative to it:
     * "absent (no node_guid)" rather than the full sys/class/infiniband path, nine times over on a big node.
     */
    private static String local(Reading<?> r, String dir) {
        return ValueText.printable(r.describe().replace(dir, ""));
    }

    /** The netdevs the network collector tied to this port, else those its GIDs are bound to. */
    private static String netdevs(RdmaPort p, List<NetInterface> interfaces) {
        List<String> names = new ArrayList<>();
        for (NetInterface n : interfaces) {
            if (n.rdmaPorts().stream().anyMatch(r -> r.device().equals(p.device()) && r.port() == p.port())) {
                names.add(n.name());
            }
        }
        if (names.isEmpty()) {
            p.gids().stream().map(g -> g.netdev().optional()).flatMap(java.util.Optional::stream).distinct()
                    .forEach(names::add);
        }
        return names.isEmpty() ? "none" : String.join(",", names);
    }

    private static String counters(RdmaPort p) {
        if (p.counters().isEmpty() && p.hwCounters().isEmpty()) return "no counters";
        List<String> parts = new ArrayList<>();
        parts.add("rx " + ReadingText.of(p.rcvDataBytes(), ReadingText::bytes));
        parts.add("tx " + ReadingText.of(p.xmitDataBytes(), ReadingText::bytes));
        Map<String, Reading<Long>> all = new TreeMap<>(p.counters());
        List<String> errors = new ArrayList<>();
        Map<String, List<String>> unreadable = new TreeMap<>();
        all.forEach((name, r) -> {
            if (CounterKind.of(name) != CounterKind.ERROR) return;
            note(name, r, errors, unreadable);
        });
        new TreeMap<>(p.hwCounters()).forEach((name, r) -> {
            if (CounterKind.ofHw(name) == CounterKind.ERROR) note(name, r, errors, unreadable);
        });
        parts.add("errors " + (errors.isEmpty() ? "none" : String.join(" ", errors)));
        unreadable.forEach((why, names) -> parts.add(names.size() + " counters " + why));
        return String.join("  ", parts);
    }

    private static void note(String name, Reading<Long> r, List<String> errors, Map<String, List<String>> unreadable) {
        switch (r) {
            case Reading.Present<Long>(Long v) when v != 0 -> errors.add(name + "=" + v);
            case Reading.Present<Long> zero -> { }
            default -> unreadable.computeIfAbsent(r.describe(), k -> new ArrayList<>()).add(name);
        }
    }

    private static void gids(StringBuilder out, RdmaPort p, boolean fold, String dir) {
        if (p.gids().isEmpty()) return;
        List<Gid> v2v4 = p.gids().stream().filter(RdmaSection::isRoceV2Ipv4).toList();
        if (fold) {
            String list = p.gids().stream().map(g -> g.index() + ":" + type(g, dir)).collect(Collectors.joining(" "));
            String use = v2v4.isEmpty() ? "" : "  RoCE v2 IPv4: " + v2v4.stream()
                    .map(g -> "--gid-index " + g.index() + " (" + Gid4.ipv4(g.gid()) + " " + g.netdev().orElse("?") + ")")
                    .collect(Collectors.joining(", "));
            out.append("      gids ").append(list).append(use).append('\n');
            return;
        }
        for (Gid g : p.gids()) {
            out.append("      gid ").append(g.index()).append("  ").append(g.gid()).append("  ").append(type(g, dir))
                    .append("  ").append(local(g.netdev(), dir));
            if (isRoceV2Ipv4(g)) {
                out.append("  <- RoCE v2 IPv4 ").append(Gid4.ipv4(g.gid())).append(": --gid-index ").append(g.index());
            }
            out.append('\n');
        }
    }

    private static String type(Gid g, String dir) {
        return local(g.type().map(t -> switch (t) {
            case IB -> "IB";
            case ROCE_V1 -> "RoCEv1";
            case ROCE_V2 -> "RoCEv2";
        }), dir);
    }

    static boolean isRoceV2Ipv4(Gid g) {
        return g.type().optional().map(t -> t == RdmaPort.GidType.ROCE_V2).orElse(false) && Gid4.isIpv4Mapped(g.gid());
    }
}
