package dev.railyard.cluster;

import dev.railyard.model.ClusterSpec;
import dev.railyard.model.NetInterface;
import dev.railyard.model.PairKind;
import dev.railyard.model.PairOutcome;
import dev.railyard.model.PairResult;
import dev.railyard.model.PairTest;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;

/** Specs and pair results for the pair, culprit and orchestration tests. */
final class PairFixtures {

    private PairFixtures() {
    }

    static final Instant T0 = Instant.parse("2026-11-23T00:00:00Z");

    static List<String> names(int n) {
        return IntStream.range(1, n + 1).mapToObj(i -> String.format("n%03d", i)).toList();
    }

    /**
     * n nodes on a management network and {@code rails} compute networks (rail0, rail1, ...), each on its own NIC,
     * 40 Gb/s, MTU 9000, RDMA bound when {@code rdma}.
     */
    static ClusterSpec spec(int n, int rails, boolean rdma) {
        List<String> names = names(n);
        List<ClusterSpec.Node> nodes = IntStream.range(0, n).mapToObj(i -> new ClusterSpec.Node(names.get(i),
                "192.168." + (i / 250) + "." + (i % 250 + 1), Optional.empty(), Optional.empty())).toList();
        Map<String, ClusterSpec.Binding> mgmt = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            mgmt.put(names.get(i), new ClusterSpec.Binding("eno1", Optional.empty(), Optional.of(nodes.get(i).address())));
        }
        List<ClusterSpec.Network> nets = new java.util.ArrayList<>();
        nets.add(new ClusterSpec.Network("mgmt", ClusterSpec.Role.MANAGEMENT, Optional.of(ClusterSpec.LinkLayer.ETHERNET),
                Optional.of(1.0), Optional.empty(), Optional.of("192.168.0.0/16"), Optional.empty(), mgmt));
        for (int r = 0; r < rails; r++) {
            Map<String, ClusterSpec.Binding> bind = new LinkedHashMap<>();
            for (int i = 0; i < n; i++) {
                bind.put(names.get(i), new ClusterSpec.Binding("ens" + (6 + r),
                        rdma ? Optional.of(new NetInterface.RdmaPortRef("mlx5_" + r, 1)) : Optional.empty(),
                        Optional.of("10." + r + "." + (i / 250) + "." + (i % 250 + 1))));
            }
            nets.add(new ClusterSpec.Network("rail" + r, ClusterSpec.Role.COMPUTE, Optional.of(ClusterSpec.LinkLayer.ETHERNET),
                    Optional.of(40.0), Optional.of(9000), Optional.of("10." + r + ".0.0/16"), Optional.empty(), bind));
        }
        return new ClusterSpec("sim", "test", nodes, Optional.empty(), nets, ClusterSpec.Expect.defaults());
    }

    static PairResult result(String net, String a, String b, PairKind kind, int attempt, double value) {
        return new PairResult(new PairTest(net, a, b, "10.0.0.9", kind), 1, attempt, new PairOutcome.Measured(value), T0,
                Duration.ofSeconds(2));
    }

    static PairResult failed(String net, String a, String b, PairKind kind, String why) {
        return new PairResult(new PairTest(net, a, b, "10.0.0.9", kind), 1, 1, new PairOutcome.Failed(why), T0, Duration.ZERO);
    }

    /** Every pair of {@code nodes} on one network, each measured by {@code value(a, b)}. */
    static List<PairResult> allPairs(String net, List<String> nodes, PairKind kind, java.util.function.BiFunction<String, String, Double> value) {
        List<PairResult> out = new java.util.ArrayList<>();
        for (List<RoundRobinSchedule.Pair> round : RoundRobinSchedule.of(nodes).rounds()) {
            for (RoundRobinSchedule.Pair p : round) out.add(result(net, p.first(), p.second(), kind, 1, value.apply(p.first(), p.second())));
        }
        return out;
    }
}
