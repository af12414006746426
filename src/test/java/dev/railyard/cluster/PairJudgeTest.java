package dev.railyard.cluster;

import dev.railyard.model.ClusterSpec;
import dev.railyard.model.Finding;
import dev.railyard.model.PairKind;
import dev.railyard.model.PairResult;
import dev.railyard.model.Severity;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class PairJudgeTest {

    private final ClusterSpec spec = PairFixtures.spec(4, 1, true);
    private final PairJudge judge = new PairJudge(spec, PairJudge.DEFAULT_LATENCY_K);

    private List<PairJudgement> judged(List<PairResult> results) {
        return judge.judgeLatest(results);
    }

    @Test
    void rdmaBandwidthIsJudgedAgainstEfficiencyTimesTheRate() {
        // the homelab's perftest: 4554 MB/s on 40G = 38.2 Gb/s passes the 36 Gb/s bar; ~1139 MB/s = 9.6 Gb/s fails it
        List<PairJudgement> j = judged(List.of(
                PairFixtures.result("rail0", "n001", "n002", PairKind.RDMA_BANDWIDTH, 1, 4554 * 1.048576 * 8 / 1000),
                PairFixtures.result("rail0", "n003", "n004", PairKind.RDMA_BANDWIDTH, 1, 1139 * 1.048576 * 8 / 1000)));
        assertThat(j.get(0).bad()).isFalse();
        assertThat(j.get(1).bad()).isTrue();
        assertThat(j.get(1).expected()).isEqualTo(">= 36.0 Gb/s (90% of 40 Gb/s)");
    }

    @Test
    void tcpBandwidthIsJudgedAgainstHalfTheFleetMedianAndSaysSo() {
        List<PairResult> r = PairFixtures.allPairs("rail0", PairFixtures.names(4), PairKind.TCP_BANDWIDTH,
                (a, b) -> a.equals("n001") && b.equals("n002") ? 2.5 : 10.0);
        List<PairJudgement> j = judged(r);
        assertThat(j).filteredOn(PairJudgement::bad).singleElement()
                .satisfies(x -> assertThat(x.test().subject()).isEqualTo("rail0 n001<->n002"));
        assertThat(j.getFirst().basis()).isEqualTo("0.5 x fleet median 10.0 Gb/s of 6 pairs");
    }

    @Test
    void latencyAboveKTimesTheMedianIsBad() {
        // six nodes: the slow node's 5 pairs are a third of 15, so the median stays at the good pairs' 20 us
        List<PairResult> r = PairFixtures.allPairs("rail0", PairFixtures.names(6), PairKind.TCP_LATENCY,
                (a, b) -> a.equals("n004") || b.equals("n004") ? 40.0 : 20.0);
        assertThat(judged(r)).filteredOn(PairJudgement::bad).hasSize(5)
                .allSatisfy(x -> assertThat(x.test().involves("n004")).isTrue());
    }

    @Test
    void theRetestDecidesAndIsHeldToTheFirstAttemptsBar() {
        List<PairResult> r = new ArrayList<>(PairFixtures.allPairs("rail0", PairFixtures.names(4), PairKind.TCP_BANDWIDTH,
                (a, b) -> a.equals("n001") && b.equals("n002") ? 1.0 : 10.0));
        r.add(PairFixtures.result("rail0", "n001", "n002", PairKind.TCP_BANDWIDTH, 2, 9.5));
        List<PairJudgement> j = judged(r);
        assertThat(j).hasSize(6).noneMatch(PairJudgement::bad);
        assertThat(j).filteredOn(x -> x.result().attempt() == 2).singleElement()
                .satisfies(x -> assertThat(x.bar().getAsDouble()).isEqualTo(5.0));
    }

    /**
     * A 512-host run judges 262,400 pair tests at once (and a rail bad everywhere is 130,816 FAILs): each judgement
     * must not carry its own copy of the verdict and its fix text. At a 128 MB heap it ran out of memory here.
     */
    @Test
    void judgementsOfOneKindShareTheirVerdict() {
        List<PairResult> r = PairFixtures.allPairs("rail0", PairFixtures.names(8), PairKind.RDMA_BANDWIDTH,
                (a, b) -> a.equals("n001") || b.equals("n001") ? 9.55 : b.equals("n008") ? 25.0 : 38.0);
        List<PairJudgement> j = judged(r);
        assertThat(j).hasSize(28);
        for (List<PairJudgement> same : List.of(
                j.stream().filter(x -> x.value().getAsDouble() == 9.55).toList(),
                j.stream().filter(x -> x.value().getAsDouble() == 25.0).toList(),
                j.stream().filter(x -> x.value().getAsDouble() == 38.0).toList())) {
            assertThat(same).hasSizeGreaterThan(1);
            assertThat(same).allSatisfy(x -> assertThat(x.rule().orElseThrow()).isSameAs(same.getFirst().rule().orElseThrow()));
        }
    }

    @Test
    void theLatestAttemptComesInTheOrderOfTheTestsFirstResult() {
        List<PairResult> r = new ArrayList<>(PairFixtures.allPairs("rail0", PairFixtures.names(4), PairKind.TCP_BANDWIDTH,
                (a, b) -> a.equals("n001") ? 1.0 : 10.0));
        r.add(PairFixtures.result("rail0", "n002", "n001", PairKind.TCP_BANDWIDTH, 2, 9.5));
        r.add(PairFixtures.result("rail0", "n001", "n003", PairKind.TCP_BANDWIDTH, 2, 9.0));
        List<PairJudgement> j = judged(r);
        List<String> firstSeen = r.subList(0, 6).stream().map(x -> x.test().subject()).toList();
        assertThat(j).extracting(x -> x.test().subject()).containsExactlyElementsOf(firstSeen);
        assertThat(j).filteredOn(x -> x.result().attempt() == 2).extracting(x -> x.test().subject())
                .containsExactlyInAnyOrder("rail0 n001<->n002", "rail0 n001<->n003");
        assertThat(j).filteredOn(PairJudgement::bad).extracting(x -> x.test().subject()).containsExactly(
                firstSeen.stream().filter(x -> x.equals("rail0 n001<->n004")).toArray(String[]::new));
    }

    @Test
    void aFailedPairIsBadAndFindingsNameIt() {
        List<PairResult> r = List.of(
                PairFixtures.result("rail0", "n001", "n002", PairKind.TCP_BANDWIDTH, 1, 10),
                PairFixtures.failed("rail0", "n003", "n004", PairKind.TCP_BANDWIDTH, "connection refused"));
        List<Finding> f = PairJudge.findings(judged(r));
        assertThat(f).singleElement().satisfies(x -> {
            assertThat(x.severity()).isEqualTo(Severity.FAIL);
            assertThat(x.id()).isEqualTo("bench.tcp.bw");
            assertThat(x.subject()).isEqualTo("rail0 n003<->n004");
            assertThat(x.observed()).isEqualTo("no result: connection refused");
        });
    }

    @Test
    void allGoodGivesOnePassPerNetworkAndKind() {
        List<PairResult> r = PairFixtures.allPairs("rail0", PairFixtures.names(4), PairKind.TCP_BANDWIDTH, (a, b) -> 10.0);
        assertThat(PairJudge.findings(judged(r))).singleElement().satisfies(x -> {
            assertThat(x.severity()).isEqualTo(Severity.PASS);
            assertThat(x.observed()).startsWith("6 of 6 pairs within expect; median 10.0 Gb/s");
        });
    }
}
