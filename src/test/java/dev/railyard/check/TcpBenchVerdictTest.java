package dev.railyard.check;

import dev.railyard.model.BandwidthResult;
import dev.railyard.model.Finding;
import dev.railyard.model.LatencyResult;
import dev.railyard.model.LatencyStats;
import dev.railyard.model.Reading;
import dev.railyard.model.ReceiverReport;
import dev.railyard.model.Severity;
import dev.railyard.model.StopReason;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** The homelab's TCP numbers (27.4 Gb/s, 21.9 µs on 40GbE) against floors either side of them. */
class TcpBenchVerdictTest {

    private static BandwidthResult bw(double sent, Reading<ReceiverReport> received, StopReason.Kind stop) {
        return new BandwidthResult("10.0.0.2", 5201, 4, 131072, 10, List.of(), 34_250_000_000L, sent, received,
                StopReason.of(stop));
    }

    private static Finding judge(BandwidthResult r, Double floor) {
        return TcpBenchVerdict.judge("10.0.0.2:5201", r, Optional.ofNullable(floor), Optional.empty()).getFirst();
    }

    @Test
    void bandwidthIsJudgedByWhatArrivedWhenTheServerSaysSo() {
        BandwidthResult r = bw(28.1, Reading.of(new ReceiverReport(34_250_000_000L, 10, 27.4)), StopReason.Kind.DURATION);
        assertThat(judge(r, 27.4).severity()).isEqualTo(Severity.PASS);
        assertThat(judge(r, 27.5).severity()).isEqualTo(Severity.FAIL);
        assertThat(judge(r, 27.5).observed()).startsWith("27.40 Gb/s received over 4 streams");
        assertThat(judge(r, null).severity()).isEqualTo(Severity.INFO);
        BandwidthResult senderOnly = bw(28.1, Reading.absent("server sent no report"), StopReason.Kind.DURATION);
        assertThat(judge(senderOnly, 28.0).observed()).startsWith("28.10 Gb/s sent");
        assertThat(judge(senderOnly, 28.0).severity()).isEqualTo(Severity.PASS);
    }

    @Test
    void aRunThatStoppedEarlyIsNeverAPass() {
        BandwidthResult r = bw(28.1, Reading.absent("interrupted"), StopReason.Kind.INTERRUPTED);
        assertThat(judge(r, 1.0).severity()).isEqualTo(Severity.UNKNOWN);
        assertThat(judge(r, 1.0).observed()).contains("stopped early: interrupted");
    }

    @Test
    void latencyIsTheOneWayAverageAgainstTheCeiling() {
        LatencyResult r = new LatencyResult("10.0.0.2", 5201, 64, 0.4, 10,
                new LatencyStats(1000, 20.1, 21.9, 21.5, 30.2, 41.0, 55.0), LatencyResult.BASIS, List.of(),
                StopReason.of(StopReason.Kind.DURATION));
        assertThat(TcpBenchVerdict.judge("n", r, Optional.empty(), Optional.of(21.9)).getFirst().severity())
                .isEqualTo(Severity.PASS);
        Finding slow = TcpBenchVerdict.judge("n", r, Optional.empty(), Optional.of(21.8)).getFirst();
        assertThat(slow.severity()).isEqualTo(Severity.FAIL);
        assertThat(slow.id()).isEqualTo(TcpBenchVerdict.LAT);
        assertThat(slow.observed()).isEqualTo("21.90 µs one-way average (p99 30.20 µs), 64-byte messages");
    }
}
