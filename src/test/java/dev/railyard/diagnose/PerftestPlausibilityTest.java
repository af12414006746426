package dev.railyard.diagnose;

import dev.railyard.model.Severity;
import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** perftest numbers that cannot be taken at their word: a lying unit label, small messages, IB signalling rates. */
class PerftestPlausibilityTest {

    private static final String HEADER = """
                                RDMA_Write BW Test
             Dual-port       : OFF          Device         : mlx5_0
             Number of qps   : 1            Transport type : IB
             Connection type : RC           Using SRQ      : OFF
             Mtu             : 4096[B]
             Link type       : %s
            ---------------------------------------------------------------------------------------
             #bytes     #iterations    BW peak[%s]    BW average[%s]   MsgRate[Mpps]
            """;

    private static DiagnosisReport diagnose(String linkType, String unit, String row, double rate) {
        String text = HEADER.formatted(linkType, unit, unit) + row + "\n";
        DiagnoseTargets d = DiagnoseTargets.defaults();
        return Diagnoser.standard().diagnose(text, new DiagnoseTargets(Optional.of(rate), d.rdmaBwEfficiency(),
                d.rdmaLatencyUs(), d.ncclBusbwGBps(), d.fabricExpected(), d.storageSeqMiBps()));
    }

    @Test
    void aGbpsNumberUnderAnMbLabelIsReadAsGbps() {
        // 0.180 Mpps × 65536 B × 8 = 94.4 Gb/s; as MiB/s it would be 11250
        DiagnosisReport r = diagnose("Ethernet", "MB/sec", " 65536      1000000        94.50              94.40              0.180000", 100);
        assertThat(r.diagnoses()).anySatisfy(d -> assertThat(d.cause())
                .contains("the BW column says MB/sec but MsgRate × size", "matches Gb/sec"));
        assertThat(r.diagnoses()).anySatisfy(d -> {
            assertThat(d.finding().id()).isEqualTo("bench.rdma.bw");
            assertThat(d.severity()).isEqualTo(Severity.PASS);
            assertThat(d.cause()).contains("94.4 Gb/s at 65536 B");
        });
    }

    @Test
    void aConsistentLabelIsLeftAlone() {
        // 0.087 Mpps × 65536 B = 5437 MiB/s: the label is right
        DiagnosisReport r = diagnose("Ethernet", "MB/sec", " 65536      5000           5440.10            5437.50            0.087000", 40);
        assertThat(r.diagnoses()).noneSatisfy(d -> assertThat(d.cause()).contains("the BW column says"));
    }

    @Test
    void smallMessagesAreNotJudgedAgainstTheLink() {
        DiagnosisReport r = diagnose("Ethernet", "Gb/sec", " 8          224958464        0.00               0.48   		   7.498617", 100);
        assertThat(r.worst()).isNotEqualTo(Severity.FAIL);
        assertThat(r.diagnoses()).anySatisfy(d -> assertThat(d.cause())
                .contains("measure the message rate, not the link"));
    }

    @Test
    void qdrInfinibandIsJudgedAgainstItsDataRate() {
        // 29.6 Gb/s on QDR: 74 % of the 40 Gb/s ibstat shows, 92.5 % of the 32 Gb/s the link carries
        DiagnosisReport ib = diagnose("IB", "Gb/sec", " 65536      5000           29.70              29.60              0.056458", 40);
        assertThat(ib.diagnoses()).anySatisfy(d -> {
            assertThat(d.severity()).isEqualTo(Severity.PASS);
            assertThat(d.cause()).contains("of 32 Gb/s");
        });
        DiagnosisReport roce = diagnose("Ethernet", "Gb/sec", " 65536      5000           29.70              29.60              0.056458", 40);
        assertThat(roce.worst()).isEqualTo(Severity.FAIL);
    }

    @Test
    void dataRates() {
        assertThat(PerftestPlausibility.dataRate(40, true)).isEqualTo(32);
        assertThat(PerftestPlausibility.dataRate(56, true)).isCloseTo(54.55, org.assertj.core.data.Offset.offset(0.01));
        assertThat(PerftestPlausibility.dataRate(100, true)).isEqualTo(100);
        assertThat(PerftestPlausibility.dataRate(400, true)).isEqualTo(400);
        assertThat(PerftestPlausibility.dataRate(40, false)).isEqualTo(40);
    }
}
