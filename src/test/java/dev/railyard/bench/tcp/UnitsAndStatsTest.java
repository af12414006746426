package dev.railyard.bench.tcp;

import dev.railyard.model.LatencyStats;
import dev.railyard.model.Rates;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class UnitsAndStatsTest {

    @Test
    void durationsTakeUnitsAndABareNumberIsSeconds() {
        assertThat(Units.parseDuration("10")).isEqualTo(Duration.ofSeconds(10));
        assertThat(Units.parseDuration("500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(Units.parseDuration("1.5s")).isEqualTo(Duration.ofMillis(1500));
        assertThat(Units.parseDuration("2m")).isEqualTo(Duration.ofMinutes(2));
        assertThatThrownBy(() -> Units.parseDuration("soon")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void oneWayIsHalfTheRoundTripWithNearestRankPercentiles() {
        long[] rtt = new long[1000];
        for (int i = 0; i < rtt.length; i++) rtt[i] = (1000 - i) * 1000L; // 1..1000 µs, unsorted
        LatencyStats s = LatencyStats.oneWayFromRoundTrips(rtt, 1000);
        assertThat(s.samples()).isEqualTo(1000);
        assertThat(s.minMicros()).isEqualTo(0.5);
        assertThat(s.p50Micros()).isEqualTo(250.0);
        assertThat(s.p99Micros()).isEqualTo(495.0);
        assertThat(s.p999Micros()).isEqualTo(499.5);
        assertThat(s.maxMicros()).isEqualTo(500.0);
        assertThat(s.avgMicros()).isEqualTo(250.25);
        assertThat(rtt[0]).as("input left unsorted").isEqualTo(1_000_000L);
    }

    @Test
    void headerRoundTripsAndRejectsStrangers() {
        SessionHeader h = new SessionHeader(TcpMode.LATENCY, 4, 64);
        assertThat(SessionHeader.decode(h.encode())).isEqualTo(h);
        ByteBuffer http = ByteBuffer.wrap("GET / HTTP/1.1\r\n".getBytes());
        assertThatThrownBy(() -> SessionHeader.decode(http)).hasMessageContaining("not a railyard bench tcp client");
    }

    @Test
    void gbitsAreDecimalLikeIperf3() {
        assertThat(Rates.gbits(1_250_000_000L, 1.0)).isEqualTo(10.0);
        assertThat(TcpResultText.bytes(131072)).contains("128.00 KBytes");
    }
}
