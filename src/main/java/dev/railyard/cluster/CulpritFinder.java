package dev.railyard.cluster;

import dev.railyard.check.Fix;
import dev.railyard.check.rules.RdmaBandwidthRule;

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
    private CulpritFinder() {
    }

    /**
     * What one network looked like: its nodes in the schedule, its line rate, whether it carries RDMA (the fixes of
     * a TCP-only network name netdevs, never RDMA ports), and its judged pairs.
     */
    public record NetworkPairs(String network, List<String> nodes, Optional<Double> rateGbps, boolean rdma,
                               List<PairJudgement> judged) {
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
     * The link rate a bandwidth looks like it trained at, when that is a standard rate below the line rate:
     * ~1139 MB/s (9.6 Gb/s) on a 40G port is a link that negotiated 10G.
     */
    static Optional<Double> trainedDownTo(double gbps, double lineRate, boolean rdma) {
        if (rdma) return RdmaBandwidthRule.negotiatedBelow(gbps, lineRate);
        return RdmaBandwidthRule.trainsDownTo(lineRate).stream().filter(r -> gbps <= r * 0.95 && gbps >= r * 0.6)
                .findFirst();
    }

    /** What both ends of a link show about it: each netdev's speed, MTU and errors, and where RDMA runs, each port's rate and state. */
    static String portEvidence(boolean rdma) {
        return rdma ? Fix.lines("grep . /sys/class/infiniband/*/ports/*/rate /sys/class/infiniband/*/ports/*/state",
                NETDEV_EVIDENCE) : NETDEV_EVIDENCE;
    }

    private static final String NETDEV_EVIDENCE = Fix.lines("grep . /sys/class/net/*/speed /sys/class/net/*/mtu",
            "ip -s -br link");

    private static String linkFix(List<String> ends, NetworkPairs net, List<PairJudgement> bad) {
        for (PairJudgement j : bad) {
            Optional<String> specific = specificFix(j, net);
            if (specific.isPresent()) return Fix.lines(Fix.note("on " + ends.get(0) + " and on " + ends.get(1) + ":"),
                    specific.get());
        }
        return Fix.lines(Fix.note("the cable or path between " + ends.get(0) + " and " + ends.get(1) + ": where an end "
                        + "shows a lower rate or errors, reseat or replace the cable, or move it to another switch port"),
                Fix.note("on " + ends.get(0) + " and on " + ends.get(1) + ":"), portEvidence(net.rdma()));
    }

    private static String nodeFix(String node, NetworkPairs net, Map<Link, List<PairJudgement>> bad) {
        for (List<PairJudgement> js : bad.values()) {
            for (PairJudgement j : js) {
                Optional<String> specific = specificFix(j, net);
                if (specific.isPresent()) {
                    return Fix.lines(Fix.note("on " + node + ":"), specific.get(), "railyard check --node " + node);
                }
            }
        }
        return Fix.lines(Fix.note("most of " + node + "'s pairs on " + net.network() + " are bad: its port state and "
                        + "rate, MTU, CPU governor, PCIe width and memlock; a low rate means reseating the cable or "
                        + "another switch port"),
                Fix.note("on " + node + ":"), "railyard check --node " + node, portEvidence(net.rdma()));
    }

    private static String railFix(NetworkPairs net) {
        if (!net.rdma()) {
            return Fix.lines(Fix.note("every pair on " + net.network() + " is slow: look at what the network shares: "
                            + "the switch's port speeds, the MTU and flow control"),
                    Fix.note("on any node of " + net.network() + ":"), NETDEV_EVIDENCE);
        }
        return Fix.lines(Fix.note("every pair on " + net.network() + " is slow: look at what the rail shares: the switch's "
                        + "port speeds, the rail's MTU and flow control (PFC/ECN on RoCE), and on InfiniBand the subnet "
                        + "manager (ports in INIT: none runs)"),
                Fix.note("on any node of " + net.network() + ":"),
                "grep . /sys/class/infiniband/*/ports/*/rate /sys/class/infiniband/*/ports/*/state",
                "command -v iblinkinfo >/dev/null && iblinkinfo",
                "command -v sminfo >/dev/null && sminfo");
    }

    /** The fix that what a pair's judgement says points at, as lines for the node it runs on. */
    private static Optional<String> specificFix(PairJudgement j, NetworkPairs net) {
        String observed = j.observed().toLowerCase(Locale.ROOT);
        if (observed.contains("state is down") || observed.contains("port down") || observed.contains("link down")) {
            return Optional.of(Fix.lines(Fix.note("a port is down: plug in or reseat the cable, then bring the netdev "
                    + "up (ip link set dev NAME up); the ports:"), "rdma link show", "ip -br link"));
        }
        if (observed.contains("gid")) {
            return Optional.of(Fix.lines(Fix.note("no usable RoCE GID: the netdev needs its IPv4 address; railyard "
                    + "reports the RoCE v2 GID index to use:"), "railyard check --only rdma.roce.gid", "ip -br addr"));
        }
        if (observed.contains("mtu")) {
            return Optional.of(Fix.lines(Fix.note("the ends disagree on MTU (cluster.mtu): set the spec's MTU on both "
                    + "(railyard render writes it into the netplan file); the MTUs now:"), "ip -br link"));
        }
        OptionalDouble v = j.value();
        if (j.kind() == PairKind.RDMA_BANDWIDTH && j.rule().isPresent()) {
            // the rule names the lower rate a trained-down link matches, and then its fix is the cable
            return Optional.of(j.rule().get().fix()).filter(f -> j.rule().get().severity() == Severity.FAIL
                    && !j.rule().get().observed().isEmpty());
        }
        boolean bandwidth = j.kind() == PairKind.RDMA_BANDWIDTH || j.kind() == PairKind.TCP_BANDWIDTH;
        if (v.isPresent() && bandwidth && net.rateGbps().isPresent()) {
            Optional<Double> trained = trainedDownTo(v.getAsDouble(), net.rateGbps().get(), j.kind() == PairKind.RDMA_BANDWIDTH);
            if (trained.isPresent()) {
                return Optional.of(Fix.lines(Fix.note(PairJudge.format(v.getAsDouble()) + " Gb/s on a "
                        + PairJudge.rate(net.rateGbps().get()) + " Gb/s link looks like it negotiated "
                        + PairJudge.rate(trained.get()) + "G: reseat or replace the cable; the rates now:"), portEvidence(net.rdma())));
            }
        }
        return Optional.empty();
    }
}
