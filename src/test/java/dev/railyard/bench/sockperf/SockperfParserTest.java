package dev.railyard.bench.sockperf;

import dev.railyard.bench.ToolParseException;
import dev.railyard.diagnose.RealSample;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class SockperfParserTest {

    private final SockperfParser parser = new SockperfParser();

    private SockperfResult.PingPong pingPong(String resource) {
        return (SockperfResult.PingPong) parser.parse(RealSample.text(resource));
    }

    @Test
    void tcpPingPongOverEthernet() {
        var p = pingPong("sockperf/sockperf-doc-pingpong-tcp-ethernet.txt");
        assertThat(p.avgUs()).isEqualTo(9.017);
        assertThat(p.stdDevUs()).isEqualTo(4.171);
        assertThat(p.roundTrip()).isFalse();
        assertThat(p.observations()).hasValue(528579);
        assertThat(p.p50Us()).hasValue(6.222);
        assertThat(p.p99Us()).hasValue(16.193);
        assertThat(p.p999Us()).hasValue(16.824);
        assertThat(p.maxUs()).hasValue(98.777);
        assertThat(p.minUs()).hasValue(4.629);
    }

    @Test
    void udpMulticastOverIpoib() {
        var p = pingPong("sockperf/sockperf-doc-pingpong-udp-multicast-ipoib.txt");
        assertThat(p.avgUs()).isEqualTo(20.771);
        assertThat(p.p99Us()).hasValue(48.619);
        assertThat(p.minUs()).hasValue(16.748);
    }

    @Test
    void vmaBannersAreSkipped() {
        var p = pingPong("sockperf/sockperf-doc-pingpong-udp-vma.txt");
        assertThat(p.avgUs()).isEqualTo(0.951);
        assertThat(p.observations()).hasValue(4951987);
        assertThat(p.p999Us()).hasValue(1.179);
    }

    @Test
    void bomAnsiColoursAndFullLogRoundTrip() {
        var p = pingPong("sockperf/virtualclient-sockperf-client-full-rtt-ansi-fulllog.txt");
        assertThat(p.avgUs()).isEqualTo(101.926);
        assertThat(p.roundTrip()).isTrue();
        assertThat(p.observations()).hasValue(14975);
        assertThat(p.p99Us()).hasValue(180.199);
        assertThat(p.maxUs()).hasValue(531.956);
        assertThat(p.minUs()).hasValue(48.650);
    }

    @Test
    void seed001ShortSummary() {
        var p = pingPong("sockperf/seed-001-sockperf-pingpong-tcp.txt");
        assertThat(p.avgUs()).isEqualTo(21.928);
        assertThat(p.p50Us()).hasValue(21.622);
        assertThat(p.p99Us()).isEmpty();
        assertThat(p.maxUs()).hasValue(31.618);
    }

    @Test
    void throughputSummary() {
        var t = (SockperfResult.Throughput) parser.parse(RealSample.text("sockperf/issue-sockperf-140-throughput-tcp-summary.txt"));
        assertThat(t.messagesSent()).isEqualTo(1559669);
        assertThat(t.seconds()).isEqualTo(10.0);
        assertThat(t.messagesPerSecond()).isEqualTo(155961);
        assertThat(t.megabytesPerSecond()).isEqualTo(4873.781);
        assertThat(t.gbps()).isCloseTo(38.99025, within(1e-9));
    }

    @Test
    void errorLineFailsNamingIt() {
        // No real sample has an error line (realdata README lists none for sockperf); this one is written here.
        String text = "sockperf: == version #3.7-no.git ==\n### ERROR: sockperf: connect: Connection refused\n";
        assertThatThrownBy(() -> parser.parse(text)).isInstanceOfSatisfying(ToolParseException.class, e -> {
            assertThat(e.lineNumber()).isEqualTo(2);
            assertThat(e.line()).startsWith("### ERROR");
        });
    }
}
