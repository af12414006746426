package dev.railyard.report;

import dev.railyard.model.Finding;
import dev.railyard.model.Severity;
import dev.railyard.model.ValidationReport;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How cells are judged when the findings follow validate's own convention: a FAIL per bad pair and, for a network
 * and kind whose pairs are all good, one PASS whose subject is the network.
 */
class PairMatrixTest {

    private static ValidationReport withFindings(List<Finding> pairFindings) {
        ValidationReport r = ValidationReportFixture.report();
        return new ValidationReport(r.schemaVersion(), r.runId(), r.cluster(), r.launcher(), r.startedAt(),
                r.finishedAt(), r.complete(), r.rounds(), r.nodes(), r.clusterFindings(), r.pairs(), pairFindings,
                r.culprits(), r.benchFindings(), r.curves());
    }

    @Test
    void pairsOfAJudgedGroupWithoutTheirOwnFindingMetExpect() {
        ValidationReport r = withFindings(List.of(
                Finding.of("bench.rdma.bw", Severity.FAIL, "rail0 gpu1<->gpu3", "9.12 Gb/s (retested: attempt 2)",
                        ">= 36.0 Gb/s (90% of 40 Gb/s)", "see the culprit section"),
                Finding.pass("bench.rdma.lat", "rail0", "3 of 3 pairs within expect; median 0.85 µs", "<= 2.00 µs")));
        List<PairMatrix> m = PairMatrix.of(r);
        PairMatrix bw = m.get(0);
        assertThat(bw.cell(2, 0).severity()).isEqualTo(Severity.FAIL);
        assertThat(bw.cell(2, 0).culprit()).isTrue();
        // gpu1<->gpu2 has no finding of its own, but its group was judged: within expect, with the group's bar.
        assertThat(bw.cell(1, 0).severity()).isEqualTo(Severity.PASS);
        assertThat(bw.cell(1, 0).expected()).isEqualTo(">= 36.0 Gb/s (90% of 40 Gb/s)");
        assertThat(m.get(1).cells().stream().filter(PairMatrix.Cell::tested))
                .allSatisfy(c -> assertThat(c.severity()).isEqualTo(Severity.PASS));
        assertThat(HeatmapSvg.tooltip(m.get(1), m.get(1).cell(1, 0))).endsWith("expected <= 2.00 µs; PASS");
        // rail1 had no findings at all: measured, not judged; the failed pair has no number.
        PairMatrix tcp = m.get(2);
        assertThat(tcp.cell(1, 0).severity()).isEqualTo(Severity.INFO);
        assertThat(HeatmapSvg.tooltip(tcp, tcp.cell(1, 0))).endsWith("27.4 Gb/s; not judged");
        assertThat(tcp.cell(3, 1).severity()).isEqualTo(Severity.UNKNOWN);
        assertThat(tcp.cell(3, 0).tested()).isFalse();
    }
}
