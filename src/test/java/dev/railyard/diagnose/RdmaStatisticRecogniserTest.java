package dev.railyard.diagnose;

import dev.railyard.bench.TextLines;
import dev.railyard.model.CheckId;
import dev.railyard.model.Severity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * rdma statistic and grep of hw_counters, on real pastes: iproute2's own examples (lore.kernel.org), an OCI tutorial's
 * capture, and a byteps thread's hw_counters with ACK timeouts. No RDMA NIC here, so only the parsing and the verdicts
 * are tested.
 */
class RdmaStatisticRecogniserTest {

    private final Diagnoser diagnoser = Diagnoser.standard();

    /** resource | the ports read (as diagnose sees the paste: quotes taken off) | the first's counters | worst. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "rdma-stat-show-wrapped-and-p-iproute2-cover-20190710.txt | mlx5_0/1 | 21 | PASS",
            "rdma-stat-qp-show-and-link-quoted-reply-20190716.txt | mlx5_2/1 rocep1s0f5/1 | 18 | PASS",
            "rdma-statistic-show-optional-counters-wrapped-cover-1633513239.txt | rocep8s0f0/1 | 30 | PASS",
            "rdma-statistic-optional-set-line-nldev-20210818.txt | rocep8s0f0/1 | 29 | PASS",
            "rdma-statistic-grep-mlx5_2-oci-cluster-network-howto.txt | mlx5_2/1 | 29 | PASS",
            "hw_counters-grep-local-ack-timeout-cnp-byteps179.txt | mlx5_0/1 | 6 | WARN",
    })
    void readsEveryShapeOfRealOutput(String resource, String ports, int counters, Severity worst) {
        String text = RealSample.text("ib-tools/" + resource);
        List<RdmaStatisticRecogniser.Port> read = RdmaStatisticRecogniser.read(Paste.of(text).text()).stream()
                .filter(p -> !p.counters().isEmpty()).toList();
        assertThat(read).extracting(RdmaStatisticRecogniser.Port::name).containsExactly(ports.split(" "));
        assertThat(read.getFirst().counters()).hasSize(counters).doesNotContainKeys("cntn", "pid", "comm");
        DiagnosisReport r = diagnoser.diagnose(text);
        assertThat(r.tool()).isEqualTo(ToolKind.RDMA_STATISTIC);
        assertThat(r.worst()).isEqualTo(worst);
    }

    @Test
    void aWrappedBlockKeepsTheValueOnTheNextLineAndTheOptionalCounters() {
        var port = RdmaStatisticRecogniser.read(TextLines.of(RealSample.text(
                "ib-tools/rdma-statistic-show-optional-counters-wrapped-cover-1633513239.txt"))).getFirst();
        // "rx_icrc_encapsulated 0 cc_rx_ce_pkts 0" ends a line, "cc_rx_cnp_pkts 0" is the next one
        assertThat(port.counters()).containsEntry("cc_rx_cnp_pkts", 0L).containsEntry("rx_icrc_encapsulated", 0L);
        var cover = RdmaStatisticRecogniser.read(TextLines.of(RealSample.text(
                "ib-tools/rdma-stat-show-wrapped-and-p-iproute2-cover-20190710.txt"))).getFirst();
        // "rx_atomic_requests" ends the first line, its 0 starts the second
        assertThat(cover.counters()).containsEntry("rx_atomic_requests", 0L).containsEntry("np_cnp_sent", 0L);
    }

    @Test
    void ackTimeoutsAreAWarnThatSaysPacketsWereLostAndCnpsAnInfo() {
        DiagnosisReport r = diagnoser.diagnose(RealSample.text(
                "ib-tools/hw_counters-grep-local-ack-timeout-cnp-byteps179.txt"));
        Diagnosis warn = r.diagnoses().stream().filter(d -> d.severity() == Severity.WARN).findFirst().orElseThrow();
        assertThat(warn.finding().id()).isEqualTo(CheckId.RDMA_RETRY_EXCEEDED.id());
        assertThat(warn.subject()).isEqualTo("mlx5_0/1");
        assertThat(warn.cause()).contains("local_ack_timeout_err=2705", "lost on the path", "PFC",
                "one paste cannot tell");
        assertThat(warn.fix()).contains("rdma statistic show link mlx5_0/1", "mlnx_qos");
        assertThat(r.diagnoses()).anySatisfy(d -> {
            assertThat(d.severity()).isEqualTo(Severity.INFO);
            assertThat(d.cause()).contains("np_cnp_sent=1333", "not a fault");
        });
        assertThat(r.parsed().numbers()).anySatisfy(m -> assertThat(m.value()).isEqualTo(2705));
        // lifespan (the kernel's cache time) and duplicate_request are not errors
        assertThat(warn.cause()).doesNotContain("lifespan", "duplicate_request");
    }

    @Test
    void trafficCountersAreNotErrors() {
        DiagnosisReport r = diagnoser.diagnose(RealSample.text(
                "ib-tools/rdma-statistic-grep-mlx5_2-oci-cluster-network-howto.txt"));
        assertThat(r.diagnoses()).singleElement().satisfies(d -> {
            assertThat(d.severity()).isEqualTo(Severity.PASS);
            assertThat(d.subject()).isEqualTo("mlx5_2/1");
            assertThat(d.cause()).contains("no error counter above 0");
        });
    }

    @Test
    void rdmaLinkLinesStayRdmaLink() {
        String link = "link mlx5_0/1 state ACTIVE physical_state LINK_UP netdev p1p1\n"
                + "link mlx5_1/1 state ACTIVE physical_state LINK_UP netdev p1p2\n";
        assertThat(diagnoser.diagnose(link).tool()).isEqualTo(ToolKind.RDMA_LINK);
        assertThat(RdmaStatisticRecogniser.read(TextLines.of(link))).allSatisfy(p ->
                assertThat(p.counters()).isEmpty());
    }
}
