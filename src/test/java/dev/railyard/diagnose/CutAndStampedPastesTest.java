package dev.railyard.diagnose;

import dev.railyard.model.Severity;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Real pastes in shapes the readers missed: cut before their first row, behind a clock prefix, one kind of line
 * alone, or two tools without a blank line between them. Each is read from its corpus file (source in its header).
 */
class CutAndStampedPastesTest {

    private final Diagnoser diagnoser = Diagnoser.standard();

    private DiagnosisReport read(String resource) {
        return diagnoser.diagnose(PasteCorpusTest.load(resource).text());
    }

    /** esnet/iperf 648: iperf3 -V printed its banner and "Starting Test" and the paste ends there. */
    @Test
    void iperf3BannerCutBeforeTheFirstIntervalIsUnknownNotAFailure() {
        DiagnosisReport r = read("diagnose/corpus/holdout5/iperf3-33-verbose-client-banner-cut-before-intervals-iperf648.txt");
        assertThat(r.tool()).isEqualTo(ToolKind.IPERF3_TEXT);
        assertThat(r.worst()).isEqualTo(Severity.UNKNOWN);
        assertThat(r.diagnoses().getFirst().cause()).contains("before the first interval");
    }

    /** esnet/iperf 914: every line of an iperf3 --forceflush server carries a "41:23.4: " clock. */
    @Test
    void iperf3LinesBehindAMinuteSecondClockAreRead() {
        DiagnosisReport r = read("diagnose/corpus/holdout5/iperf3-forceflush-timestamp-prefix-udp-reverse-server-iperf914.txt");
        assertThat(r.tool()).isEqualTo(ToolKind.IPERF3_TEXT);
        assertThat(r.parsed().numbers()).anySatisfy(m -> assertThat(m.value()).isCloseTo(0.002, org.assertj.core.data.Offset.offset(0.0001)));
    }

    /** esnet/iperf 227: only iperf3 3.0's "OUT OF ORDER" lines, one per late datagram. */
    @Test
    void iperf3OutOfOrderLinesAloneAreAWarningWithTheirCount() {
        DiagnosisReport r = read("diagnose/corpus/holdout5/iperf3-udp-out-of-order-lines-only-iperf227.txt");
        assertThat(r.tool()).isEqualTo(ToolKind.IPERF3_TEXT);
        assertThat(r.worst()).isEqualTo(Severity.WARN);
        assertThat(r.diagnoses().getFirst().cause()).contains("arrived out of order");
    }

    /** open-mpi/hwloc 653 and tenstorrent/tt-smi 67: lspci -vv blocks that end before LnkCap and LnkSta. */
    @Test
    void lspciBlockCutBeforeItsLinkLinesIsUnknownForThatDevice() {
        DiagnosisReport a100 = read("diagnose/corpus/holdout5/lspci-a100-sxm-cut-before-lnkcap-hwloc653.txt");
        assertThat(a100.tool()).isEqualTo(ToolKind.LSPCI);
        assertThat(a100.worst()).isEqualTo(Severity.UNKNOWN);
        assertThat(a100.diagnoses().getFirst().fix()).contains("lspci -vv -s da:00.0");
        DiagnosisReport blackhole = read("diagnose/corpus/holdout5/lspci-blackhole-accelerator-cut-before-express-caps-ttsmi67.txt");
        assertThat(blackhole.tool()).isEqualTo(ToolKind.LSPCI);
        assertThat(blackhole.worst()).isEqualTo(Severity.UNKNOWN);
    }

    /** kb.advancedclustering.com: an ibstat copied into a web page without its indentation. */
    @Test
    void ibstatWithoutIndentationKeepsItsPortAndRate() {
        DiagnosisReport r = read("diagnose/corpus/holdout5/ibstat-mlx4-unindented-active-40-advancedclustering.txt");
        assertThat(r.tool()).isEqualTo(ToolKind.IBSTAT);
        assertThat(r.parsed().numbers()).extracting(Measurement::value).contains(40.0);
        assertThat(r.worst()).isIn(Severity.PASS, Severity.INFO);
    }

    /** Azure/azhpc-diagnostics 59: an unindented ibstat (port Initializing), prose, then ibstatus: two sections. */
    @Test
    void unindentedIbstatThenIbstatusAreTwoSections() {
        DiagnosisReport r = read("diagnose/corpus/holdout5/mixed-ibstat-initializing-then-ibstatus-ibpanic-azhpcdiag59.txt");
        assertThat(r.tool()).as(r.diagnoses().toString()).isEqualTo(ToolKind.MIXED);
        assertThat(r.parsed().numbers()).extracting(Measurement::value).contains(200.0);
    }

    /** wookayin/gpustat 135: nvidia-smi -q's Clocks and Max Clocks sections alone, no ECC section. */
    @Test
    void nvidiaSmiQClockSectionsAloneAreReadAndEccIsNotPromised() {
        DiagnosisReport r = read("diagnose/corpus/holdout5/nvsmi-q-clocks-and-max-clocks-only-gpustat135.txt");
        assertThat(r.tool()).isEqualTo(ToolKind.NVIDIA_SMI_Q);
        assertThat(r.worst()).isEqualTo(Severity.INFO);
        assertThat(r.diagnoses().getFirst().cause()).contains("not judged");
    }
}
