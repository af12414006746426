package dev.railyard.bench.iperf3;

import dev.railyard.bench.ToolParseException;
import dev.railyard.diagnose.RealSample;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class Iperf3JsonParserTest {

    private final Iperf3JsonParser parser = new Iperf3JsonParser();

    @Test
    void tcpTenSecondsWithOmittedIntervals() {
        Iperf3Result r = parser.parse(RealSample.text("iperf3/cloudpilot-iperf3-3.9-json-tcp-10s-omit3.txt"));
        // end.sum_sent.bits_per_second=464521026.08410436 per the sample header
        assertThat(r.sentGbps()).isCloseTo(0.464521026, within(1e-9));
        assertThat(r.receivedGbps()).isCloseTo(0.464786288, within(1e-9));
        assertThat(r.sentBytes()).isEqualTo(580648960L);
        assertThat(r.receivedBytes()).isEqualTo(584581120L);
        assertThat(r.retransmits()).hasValue(0);
        assertThat(r.version()).isEqualTo("iperf 3.9");
        assertThat(r.protocol()).isEqualTo("TCP");
        assertThat(r.streams()).isEqualTo(1);
        assertThat(r.intervals().getFirst().omitted()).isTrue();
        assertThat(r.intervals().getFirst().retransmits()).isEqualTo(82);
        assertThat(r.intervals().getFirst().gbps()).isCloseTo(0.207104227, within(1e-9));
        assertThat(r.intervals().getLast().gbps()).isCloseTo(0.471885160, within(1e-9));
        assertThat(r.intervals().getLast().omitted()).isFalse();
    }

    @Test
    void topLevelErrorIsATypedFailureNamingTheLine() {
        assertThatThrownBy(() -> parser.parse(
                RealSample.text("iperf3/cloudpilot-iperf3-3.6-json-ERROR-control-socket-closed.txt")))
                .isInstanceOfSatisfying(ToolParseException.class, e -> {
                    assertThat(e.tool()).isEqualTo("iperf3");
                    assertThat(e.lineNumber()).isEqualTo(29);
                    assertThat(e.line()).contains("\"error\"");
                    assertThat(e.reason()).contains("control socket has closed unexpectedly");
                });
    }

    @Test
    void emptyIntervalsAndEndWithoutErrorIsATypedFailure() {
        assertThatThrownBy(() -> parser.parse(
                RealSample.text("iperf3/cloudpilot-iperf3-3.9-json-EMPTY-intervals-no-error.txt")))
                .isInstanceOfSatisfying(ToolParseException.class, e -> {
                    assertThat(e.lineNumber()).isEqualTo(27);
                    assertThat(e.line()).contains("\"end\"");
                    assertThat(e.reason()).contains("did not complete");
                });
    }

    @Test
    void truncatedFileFailsAtItsLastLine() {
        String text = RealSample.text("iperf3/cloudpilot-iperf3-3.9-json-tcp-bytes-limited-10k.txt");
        assertThatThrownBy(() -> parser.parse(text))
                .isInstanceOfSatisfying(ToolParseException.class, e -> {
                    assertThat(e.reason()).startsWith("malformed JSON");
                    assertThat(e.lineNumber()).isGreaterThanOrEqualTo(69);
                });
    }

    @Test
    void plainTextOutputIsRejectedWithAHintToUseJson() {
        assertThatThrownBy(() -> parser.parse(RealSample.text("iperf3/cloudpilot-iperf3-text-output-tcp-omit.txt")))
                .isInstanceOfSatisfying(ToolParseException.class, e -> {
                    assertThat(e.lineNumber()).isEqualTo(1);
                    assertThat(e.reason()).contains("--json");
                });
    }
}
