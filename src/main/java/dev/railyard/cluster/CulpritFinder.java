package dev.railyard.cluster;

import dev.railyard.model.Culprit;
import dev.railyard.model.CulpritKind;
import dev.railyard.model.PairKind;
import dev.railyard.model.Severity;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Names what bad pairs point at, per network: the whole RAIL when (nearly) every pair is bad, a NODE when most of
 * its own pairs are bad, and a LINK for a bad pair whose two nodes are fine elsewhere. A pair is bad when any of its
 * kinds (TCP, RDMA bandwidth or latency) is. Each culprit carries the pairs and numbers as evidence and the fix the
 * seeds' troubleshooting tables give for what the numbers look like. Pure.
 */
public final class CulpritFinder {

    /** A network with at least this share of bad pairs (and three nodes or more) is a bad rail. */
    static final double RAIL_SHARE = 0.9;
    /** Evidence lists at most this many pairs, then "and N more". */
    static final int EVIDENCE_PAIRS = 6;
    /** Line rate (Gb/s) to the lower rates such a port really trains down to (fewer lanes, an older cable). */
    private static final java.util.Map<Double, double[]> TRAINS_DOWN_TO = java.util.Map.of(
            10.0, new double[]{1}, 25.0, new double[]{10}, 40.0, new double[]{10}, 50.0, new double[]{25, 10},
            56.0, new double[]{40, 10}, 100.0, new double[]{50, 40, 25, 10}, 200.0, new double[]{100, 50},
            400.0, new double[]{200, 100}, 800.0, new double[]{400, 200});

    private CulpritFinder() {
    }

    /** What one network looked like: its nodes in the schedule, its line rate, and its judged pairs. */
    public record NetworkPairs(String network, List<String> nodes, Optional<Double> rateGbps, List<PairJudgement> judged) {
        public NetworkPairs {
            nodes = List.copyOf(nodes);
            judged = List.copyOf(judged);
        }
    }

    public static List<Culprit> find(List<NetworkPairs> networks) {
        List<Culprit> out = new ArrayList<>();
        for (NetworkPairs net : networks) out.addAll(find(net));
        return out;
    }

    static List<Culprit> find(NetworkPairs net) {
        // the links (unordered pairs) tested, and the bad judgements of each; records, not strings, as keys: a
        // 512-node rail has 130,816 links
        Set<Link> tested = new java.util.HashSet<>();
        Map<Link, List<PairJudgement>> badLinks = new java.util.HashMap<>();
        for (PairJudgement j : net.judged()) {
            Link l = Link.of(j);
            tested.add(l);
            if (j.bad()) badLinks.computeIfAbsent(l, k -> new ArrayList<>(1)).add(j);
        }
        if (badLinks.isEmpty()) return List.of();
        List<Culprit> out = new ArrayList<>();
        if (net.nodes().size() >= 3 && badLinks.size() >= RAIL_SHARE * tested.size()) {
            out.add(new Culprit(CulpritKind.RAIL, net.network(), List.of(), Severity.FAIL,
                    badLinks.size() + " of " + tested.size() + " pairs bad: " + evidence(badLinks, net),
                    railFix(net)));
            return out;
        }
        Map<String, int[]> perNode = new java.util.HashMap<>(); // node -> {tested, bad}
        tested.forEach(l -> l.ends().forEach(n -> perNode.computeIfAbsent(n, k -> new int[2])[0]++));
        badLinks.keySet().forEach(l -> l.ends().forEach(n -> perNode.get(n)[1]++));
        Set<String> badNodes = new LinkedHashSet<>();
        if (net.nodes().size() >= 3) {
            for (String n : net.nodes()) {
                int[] c = perNode.get(n);
                if (c != null && c[1] >= 2 && c[1] * 2 > c[0]) badNodes.add(n);
            }
        }
        for (String node : badNodes) {
            Map<Link, List<PairJudgement>> its = new java.util.HashMap<>();
            badLinks.forEach((l, js) -> {
                if (l.ends().contains(node)) its.put(l, js);
            });
            int[] c = perNode.get(node);
            out.add(new Culprit(CulpritKind.NODE, net.network(), List.of(node), Severity.FAIL,
                    c[1] + " of its " + c[0] + " pairs bad: " + evidence(its, net), nodeFix(node, net, its)));
        }
        new TreeMap<>(badLinks).forEach((l, js) -> {
            if (l.ends().stream().anyMatch(badNodes::contains)) return; // explained by the node
            out.add(new Culprit(CulpritKind.LINK, net.network(), l.ends(), Severity.FAIL,
                    evidence(Map.of(l, js), net) + (net.nodes().size() > 2 ? "; both nodes fine with their other peers" : ""),
                    linkFix(l.ends(), net, js)));
        });
        return out;
    }

    /** An unordered pair of nodes, the lower name first; ordered by name for the evidence. */
    record Link(String a, String b) implements Comparable<Link> {
        static Link of(PairJudgement j) {
            String x = j.test().client();
            String y = j.test().server();
            return x.compareTo(y) <= 0 ? new Link(x, y) : new Link(y, x);
        }

        List<String> ends() {
            return List.of(a, b);
        }

        @Override
        public int compareTo(Link o) {
            int c = a.compareTo(o.a);
            return c != 0 ? c : b.compareTo(o.b);
        }

        @Override
        public String toString() {
            return a + "<->" + b;
        }
    }

    private static String evidence(Map<Link, List<PairJudgement>> bad, NetworkPairs net) {
        List<String> parts = new ArrayList<>();
        // the first few links by name: a stable excerpt, without sorting all of a bad rail's links
        java.util.PriorityQueue<Link> first = new java.util.PriorityQueue<>(java.util.Comparator.reverseOrder());
        for (Link l : bad.keySet()) {
            first.add(l);
            if (first.size() > EVIDENCE_PAIRS) first.poll();
        }
        List<Link> shown = new ArrayList<>(first);
        shown.sort(null);
        for (Link l : shown) {
            Map.Entry<Link, List<PairJudgement>> e = Map.entry(l, bad.get(l));
            parts.add(e.getKey() + " " + e.getValue().stream().map(j -> label(j.kind()) + " " + j.observed() + " vs "
                    + j.expected()).collect(Collectors.joining(", ")));
        }
        String more = bad.size() > EVIDENCE_PAIRS ? "; and " + (bad.size() - EVIDENCE_PAIRS) + " more" : "";
        return String.join("; ", parts) + more;
    }

    private static String label(PairKind kind) {
        return switch (kind) {
            case TCP_BANDWIDTH -> "TCP";
            case TCP_LATENCY -> "TCP latency";
            case RDMA_BANDWIDTH -> "RDMA";
            case RDMA_LATENCY -> "RDMA latency";
        };
    }

    /**
     * The link rate a bandwidth looks like it trained at, when that is a standard rate below the line rate: seed 000's
     * ~1139 MB/s (9.6 Gb/s) on a 40G port is a link that negotiated 10G.
     */
    static Optional<Double> trainedDownTo(double gbps, double lineRate, boolean rdma) {
        double ceiling = rdma ? 1.0 : 0.95;
        for (double r : TRAINS_DOWN_TO.getOrDefault(lineRate, new double[0])) {
            if (gbps <= r * ceiling && gbps >= r * 0.6) return Optional.of(r);
        }
        return Optional.empty();
    }

    private static String linkFix(List<String> ends, NetworkPairs net, List<PairJudgement> bad) {
        for (PairJudgement j : bad) {
            Optional<String> specific = specificFix(j, net);
            if (specific.isPresent()) return specific.get();
        }
        return "the cable or path between " + ends.get(0) + " and " + ends.get(1) + ": compare 'ethtool NETDEV' speed and "
                + "'ibstat' rate on both ends, check 'ip link' MTU and errors; reseat or replace the cable, or move it "
                + "to another switch port";
    }

    private static String nodeFix(String node, NetworkPairs net, Map<Link, List<PairJudgement>> bad) {
        for (List<PairJudgement> js : bad.values()) {
            for (PairJudgement j : js) {
                Optional<String> specific = specificFix(j, net);
                if (specific.isPresent()) return "on " + node + ": " + specific.get() + "; then 'railyard check --node " + node + "'";
            }
        }
        return "on " + node + ": run 'railyard check --node " + node + "' (port state and rate, MTU, CPU governor, PCIe "
                + "width, memlock); check its NIC and cable on " + net.network() + " ('ethtool', 'ibstat'), then reseat "
                + "the cable or try another switch port";
    }

    private static String railFix(NetworkPairs net) {
        return "every pair on " + net.network() + " is slow: look at what the rail shares: the switch (port speed "
                + "settings, 'ibswitches'/'iblinkinfo'), the subnet manager ('sminfo'; ports in INIT mean none runs: "
                + "systemctl enable --now opensm), the rail's MTU and flow control (PFC/ECN on RoCE)";
    }

    private static Optional<String> specificFix(PairJudgement j, NetworkPairs net) {
        String observed = j.observed().toLowerCase(Locale.ROOT);
        if (observed.contains("state is down") || observed.contains("port down") || observed.contains("link down")) {
            return Optional.of("a port is down: 'ibstat' / 'ip link' on both ends; plug in or reseat the cable, "
                    + "'ip link set dev NETDEV up'");
        }
        if (observed.contains("gid")) {
            return Optional.of("no usable RoCE GID: pass the RoCE v2 GID index (railyard bench rdma picks it; "
                    + "'show_gids'), and make sure the netdev has its IPv4 address");
        }
        if (observed.contains("mtu")) {
            return Optional.of("MTU mismatch between the ends: 'ip link set dev NETDEV mtu " + "9000' on both (see cluster.mtu)");
        }
        OptionalDouble v = j.value();
        boolean bandwidth = j.kind() == PairKind.RDMA_BANDWIDTH || j.kind() == PairKind.TCP_BANDWIDTH;
        if (v.isPresent() && bandwidth && net.rateGbps().isPresent()) {
            Optional<Double> trained = trainedDownTo(v.getAsDouble(), net.rateGbps().get(), j.kind() == PairKind.RDMA_BANDWIDTH);
            if (trained.isPresent()) {
                return Optional.of(PairJudge.format(v.getAsDouble()) + " Gb/s on a " + PairJudge.rate(net.rateGbps().get())
                        + " Gb/s link looks like it negotiated " + PairJudge.rate(trained.get()) + "G: reseat or replace "
                        + "the cable (check 'ethtool NETDEV' Speed / 'ibstat' Rate on both ends)");
            }
        }
        return Optional.empty();
    }
}
