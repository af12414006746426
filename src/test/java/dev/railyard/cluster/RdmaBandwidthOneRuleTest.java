package dev.railyard.cluster;

import dev.railyard.bench.perftest.PerftestParser;
import dev.railyard.check.BenchVerdicts;
import dev.railyard.model.ClusterSpec;
import dev.railyard.model.Finding;
import dev.railyard.model.PairKind;
import dev.railyard.model.PerftestResult;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * bench.rdma.bw has one rule: an ib_write_bw result judged by `bench rdma` (BenchVerdicts) and the same number
 * judged as a validate pair (PairJudge) on a 40 Gb/s rail give one severity and one fix, the "negotiated at 10G"
 * diagnosis included.
 */
class RdmaBandwidthOneRuleTest {

    private static final String MB_TABLE = " #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]\n";

    @ParameterizedTest
    @ValueSource(doubles = {38.2, 36.0, 35.9, 30.0, 20.0, 9.55, 8.5, 2.0})
    void benchAndPairJudgeOneMeasurementAlike(double gbps) {
        double mbPerSec = gbps * 1e9 / 8 / 1048576;
        PerftestResult r = new PerftestParser().parse(MB_TABLE + String.format(Locale.ROOT,
                " 65536      5000           %.2f            %.2f              0.018227\n", mbPerSec, mbPerSec));
        ClusterSpec spec = PairFixtures.spec(2, 1, true);
        double rate = spec.network("rail0").flatMap(ClusterSpec.Network::rateGbps).orElseThrow();
        Finding bench = BenchVerdicts.rdmaBandwidthTable("rail0 n001<->n002", r, rate, spec.expect().rdmaBwEfficiency());

        double measured = r.largestBandwidthRow().orElseThrow().averageGbps();
        List<Finding> pair = PairJudge.findings(new PairJudge(spec, 1.5).judgeLatest(List.of(
                PairFixtures.result("rail0", "n001", "n002", PairKind.RDMA_BANDWIDTH, 1, measured))));

        assertThat(pair).singleElement().satisfies(p -> {
            assertThat(p.id()).isEqualTo(bench.id());
            assertThat(p.severity()).as("%.2f Gb/s", gbps).isEqualTo(bench.severity());
            if (!p.severity().equals(dev.railyard.model.Severity.PASS)) {
                assertThat(p.remediation()).as("%.2f Gb/s", gbps).isEqualTo(bench.remediation());
                assertThat(p.observed().contains("negotiated at")).isEqualTo(bench.observed().contains("negotiated at"));
            }
        });
    }
}
