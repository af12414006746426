package dev.railyard.cluster;

import dev.railyard.model.ClusterSpec;
import dev.railyard.model.Culprit;
import dev.railyard.model.CulpritKind;
import dev.railyard.model.PairKind;
import dev.railyard.model.PairResult;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;

import static org.assertj.core.api.Assertions.assertThat;

/** Table-driven: which pairs are bad decides node, link or rail, and the evidence carries the numbers. */
class CulpritFinderTest {

    private static final double GOOD = 38.0;   // RDMA Gb/s on 40G, above the 36 Gb/s bar
    private static final double BAD = 9.55;    // ~1139 MB/s on 40GbE: a link that trained at 10G

    private record Case(String name, int nodes, BiFunction<String, String, Double> rdma, List<String> expected) {}

    private static List<Culprit> culprits(int n, BiFunction<String, String, Double> value) {
        ClusterSpec spec = PairFixtures.spec(n, 1, true);
        List<PairResult> results = PairFixtures.allPairs("rail0", PairFixtures.names(n), PairKind.RDMA_BANDWIDTH, value);
        List<PairJudgement> judged = new PairJudge(spec, 1.5).judgeLatest(results);
        return CulpritFinder.find(List.of(new CulpritFinder.NetworkPairs("rail0", PairFixtures.names(n), Optional.of(40.0), true, judged)));
    }

    private static boolean touches(String a, String b, String node) {
        return a.equals(node) || b.equals(node);
    }

    @Test
    void namesNodeLinkOrRailFromThePattern() {
        List<Case> cases = List.of(
                new Case("all good", 6, (a, b) -> GOOD, List.of()),
                new Case("one bad link", 6, (a, b) -> a.equals("n002") && b.equals("n005") ? BAD : GOOD,
                        List.of("LINK link n002<->n005 on rail0")),
                new Case("one bad node", 6, (a, b) -> touches(a, b, "n003") ? BAD : GOOD,
                        List.of("NODE node n003 on rail0")),
                new Case("bad node and an unrelated bad link", 8,
                        (a, b) -> touches(a, b, "n008") || (a.equals("n001") && b.equals("n002")) ? BAD : GOOD,
                        List.of("NODE node n008 on rail0", "LINK link n001<->n002 on rail0")),
                new Case("every pair slow", 5, (a, b) -> BAD, List.of("RAIL rail rail0")),
                new Case("two nodes back to back: the cable", 2, (a, b) -> BAD, List.of("LINK link n001<->n002 on rail0")),
                new Case("three nodes, one bad: the node", 3, (a, b) -> touches(a, b, "n002") ? BAD : GOOD,
                        List.of("NODE node n002 on rail0")));
        for (Case c : cases) {
            assertThat(culprits(c.nodes(), c.rdma()).stream().map(x -> x.kind() + " " + x.subject()).toList())
                    .as(c.name()).containsExactlyInAnyOrderElementsOf(c.expected());
        }
    }

    @Test
    void aLinkAtTenGigOnAFortyGigRailIsTheCable() {
        Culprit link = culprits(6, (a, b) -> a.equals("n002") && b.equals("n005") ? BAD : GOOD).getFirst();
        assertThat(link.kind()).isEqualTo(CulpritKind.LINK);
        assertThat(link.nodes()).containsExactly("n002", "n005");
        assertThat(link.evidence()).contains("n002<->n005 RDMA 9.55 Gb/s vs >= 36.0 Gb/s (90% of 40 Gb/s)")
                .contains("both nodes fine with their other peers");
        assertThat(link.remediation()).contains("negotiated 10G").contains("replace the QSFP+ cable/DAC");
    }

    @Test
    void aNodeCulpritShowsItsBadPairsAsEvidence() {
        Culprit node = culprits(6, (a, b) -> touches(a, b, "n003") ? 20.0 : GOOD).getFirst();
        assertThat(node.evidence()).startsWith("5 of its 5 pairs bad: ").contains("n001<->n003 RDMA 20.0 Gb/s");
        assertThat(node.remediation()).startsWith("# most of n003's pairs on rail0 are bad").contains("# on n003:\n").contains("railyard check --node n003");
    }

    @Test
    void aRailSaysWhatTheRailShares() {
        Culprit rail = culprits(5, (a, b) -> 20.0).getFirst();
        assertThat(rail.evidence()).startsWith("10 of 10 pairs bad").contains("and 4 more");
        assertThat(rail.remediation()).contains("subnet manager").contains("switch");
        assertThat(rail.nodes()).isEmpty();
    }

    @Test
    void aPortDownFailureSaysBringItUp() {
        ClusterSpec spec = PairFixtures.spec(2, 1, true);
        List<PairJudgement> judged = new PairJudge(spec, 1.5).judgeLatest(List.of(PairFixtures.failed("rail0", "n001", "n002",
                PairKind.RDMA_BANDWIDTH, "Port number 1 state is Down")));
        Culprit c = CulpritFinder.find(List.of(new CulpritFinder.NetworkPairs("rail0", PairFixtures.names(2), Optional.of(40.0), true, judged))).getFirst();
        assertThat(c.remediation()).contains("a port is down");
    }

    /** Every kind of culprit and each specific cause, with fixes a root shell runs as they are. */
    @Test
    void everyCulpritsFixIsRunnable() {
        List<Culprit> all = new java.util.ArrayList<>();
        all.addAll(culprits(6, (a, b) -> a.equals("n002") && b.equals("n005") ? BAD : GOOD)); // link, trained down
        all.addAll(culprits(6, (a, b) -> a.equals("n002") && b.equals("n005") ? 20.0 : GOOD)); // link, generic
        all.addAll(culprits(6, (a, b) -> touches(a, b, "n003") ? 20.0 : GOOD));                // node, generic
        all.addAll(culprits(6, (a, b) -> touches(a, b, "n003") ? BAD : GOOD));                 // node, trained down
        all.addAll(culprits(5, (a, b) -> 20.0));                                               // rail
        ClusterSpec spec = PairFixtures.spec(2, 1, true);
        for (String why : List.of("Port number 1 state is Down", "Unable to find GID", "MTU mismatch 1500 vs 9000")) {
            List<PairJudgement> judged = new PairJudge(spec, 1.5).judgeLatest(List.of(PairFixtures.failed("rail0", "n001",
                    "n002", PairKind.RDMA_BANDWIDTH, why)));
            all.addAll(CulpritFinder.find(List.of(new CulpritFinder.NetworkPairs("rail0", PairFixtures.names(2),
                    Optional.of(40.0), true, judged))));
        }
        assertThat(all).extracting(Culprit::kind).contains(CulpritKind.LINK, CulpritKind.NODE, CulpritKind.RAIL);
        assertThat(all).extracting(Culprit::remediation).anyMatch(f -> f.contains("a port is down"))
                .anyMatch(f -> f.contains("RoCE GID")).anyMatch(f -> f.contains("disagree on MTU"))
                .anyMatch(f -> f.contains("negotiated 10G"));
        for (Culprit c : all) dev.railyard.check.RunnableFixes.assertRunnable(c.kind() + " " + c.subject(), c.remediation());
    }

    @Test
    void aTcpOnlyNetworkIsNeverSentToRdmaPorts() {
        ClusterSpec spec = PairFixtures.spec(6, 1, false);
        assertThat(spec.networks().get(1).carriesRdma()).isFalse();
        List<Culprit> all = new java.util.ArrayList<>();
        List<PairResult> link = PairFixtures.allPairs("rail0", PairFixtures.names(6), PairKind.TCP_BANDWIDTH,
                (a, b) -> a.equals("n002") && b.equals("n005") ? BAD : GOOD);
        List<PairResult> node = PairFixtures.allPairs("rail0", PairFixtures.names(6), PairKind.TCP_BANDWIDTH,
                (a, b) -> touches(a, b, "n003") ? BAD : GOOD);
        // every pair's connection timed out: the whole network (equal slow numbers set a median bar of their own)
        List<PairResult> rail = link.stream().map(r -> PairFixtures.failed("rail0", r.test().client(), r.test().server(),
                PairKind.TCP_BANDWIDTH, "connect failed: Connection timed out")).toList();
        for (List<PairResult> results : List.of(link, node, rail)) {
            List<PairJudgement> judged = new PairJudge(spec, 1.5).judgeLatest(results);
            all.addAll(CulpritFinder.find(List.of(new CulpritFinder.NetworkPairs("rail0", PairFixtures.names(6),
                    Optional.of(40.0), false, judged))));
            for (var f : PairJudge.findings(judged)) {
                assertThat(f.remediation()).as(f.toString()).doesNotContain("infiniband");
            }
        }
        assertThat(all).extracting(Culprit::kind).contains(CulpritKind.LINK, CulpritKind.NODE, CulpritKind.RAIL);
        assertThat(all).extracting(Culprit::remediation).allSatisfy(f -> assertThat(f)
                .doesNotContain("infiniband").doesNotContain("iblinkinfo").contains("/sys/class/net/"));
        // the same pattern on an RDMA network still shows the ports
        assertThat(culprits(6, (a, b) -> 20.0).getFirst().remediation()).contains("/sys/class/infiniband/");
    }

    @Test
    void trainedDownRecognisesStandardRatesOnly() {
        assertThat(CulpritFinder.trainedDownTo(9.55, 40, true)).contains(10.0);
        assertThat(CulpritFinder.trainedDownTo(23.0, 100, true)).contains(25.0);
        assertThat(CulpritFinder.trainedDownTo(20.0, 40, true)).as("40G ports drop to 10G, not 25G").isEmpty();
        assertThat(CulpritFinder.trainedDownTo(30.0, 40, true)).isEmpty();
        assertThat(CulpritFinder.trainedDownTo(9.55, 10, true)).isEmpty();
    }
}
