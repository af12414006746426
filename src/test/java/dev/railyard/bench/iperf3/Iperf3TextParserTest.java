package dev.railyard.bench.iperf3;

import dev.railyard.diagnose.RealSample;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class Iperf3TextParserTest {

    @Test
    void seed001SummaryLine() {
        Iperf3Result r = new Iperf3TextParser().parse(RealSample.text("iperf3/seed-001-iperf3-text-summary.txt"));
        assertThat(r.sentGbps()).isCloseTo(27.4, within(1e-9));
        assertThat(r.seconds()).isCloseTo(10.0, within(1e-9));
        assertThat(r.retransmits()).hasValue(0);
    }

    @Test
    void fullTextRunWithSenderAndReceiver() {
        Iperf3Result r = new Iperf3TextParser().parse(RealSample.text("iperf3/cloudpilot-iperf3-text-output-tcp-omit.txt"));
        assertThat(r.sentGbps()).isCloseTo(0.182, within(1e-9));
        assertThat(r.receivedGbps()).isCloseTo(0.182, within(1e-9));
        assertThat(r.retransmits()).hasValue(46);
        assertThat(r.intervals()).hasSize(13);
        assertThat(r.intervals().stream().filter(Iperf3Interval::omitted)).hasSize(3);
        assertThat(r.intervals().get(10).retransmits()).isEqualTo(46);
    }
}
