package dev.railyard.bench.tcp;

import dev.railyard.model.BandwidthInterval;
import dev.railyard.model.BandwidthResult;
import dev.railyard.model.LatencyInterval;
import dev.railyard.model.LatencyResult;
import dev.railyard.model.LatencyStats;
import dev.railyard.model.ReceiverReport;
import dev.railyard.model.StopReason;

import dev.railyard.model.Reading;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/** Client and server end to end over loopback; asserts counts and ordering, never timings. */
class TcpBenchLoopbackTest {

    private final List<String> serverLog = new CopyOnWriteArrayList<>();
    private TcpBenchServer server;
    private Thread serving;

    @BeforeEach
    void start() throws IOException {
        server = TcpBenchServer.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), serverLog::add);
        serving = Thread.ofPlatform().daemon().start(() -> {
            try {
                server.serve(false);
            } catch (IOException e) {
                serverLog.add("serve failed: " + e);
            }
        });
    }

    @AfterEach
    void stop() throws Exception {
        server.close();
        serving.join(5000);
    }

    private ClientSettings settings(TcpMode mode, int streams, Duration duration, int msgSize, long count)
            throws IOException {
        return new ClientSettings(server.address(), Optional.of(InetAddress.getLoopbackAddress()), mode, streams,
                duration, msgSize, Duration.ofMillis(100), count, Duration.ofMillis(50));
    }

    @Test
    void bandwidthServerReportsExactlyWhatTheClientSent() throws IOException {
        List<BandwidthInterval> seen = new ArrayList<>();
        BandwidthResult r = new BandwidthClient(settings(TcpMode.BANDWIDTH, 3, Duration.ofMillis(450), 64 << 10, 0),
                new StopSignal(), seen::add).run();

        assertThat(r.stop().kind()).isEqualTo(StopReason.Kind.DURATION);
        assertThat(r.streams()).isEqualTo(3);
        assertThat(r.sentBytes()).isPositive();
        // 450 ms at 100 ms intervals: four full intervals and the 50 ms tail on an idle machine; under load an interval
        // stretches, so judge what does not depend on timing: the intervals tile the run from 0 without gaps
        assertThat(r.intervals()).isNotEmpty().hasSizeLessThanOrEqualTo(5).isEqualTo(seen);
        assertThat(r.intervals().getFirst().startSeconds()).isZero();
        for (int i = 1; i < r.intervals().size(); i++) {
            assertThat(r.intervals().get(i).startSeconds()).isEqualTo(r.intervals().get(i - 1).endSeconds());
        }
        assertThat(r.intervals().getLast().endSeconds()).isGreaterThanOrEqualTo(0.45);
        assertThat(r.intervals()).allSatisfy(iv -> assertThat(iv.endSeconds()).isGreaterThan(iv.startSeconds()));
        assertThat(r.intervals().stream().mapToLong(BandwidthInterval::bytes).sum()).isEqualTo(r.sentBytes());
        assertThat(r.receiver()).isInstanceOf(Reading.Present.class);
        ReceiverReport rx = ((Reading.Present<ReceiverReport>) r.receiver()).value();
        assertThat(rx.bytes()).isEqualTo(r.sentBytes());
        assertThat(rx.gbitsPerSecond()).isPositive();
        // the server logs each stream after the client has its report: wait for the lines, bounded, not a fixed sleep
        assertThat(awaitServerLines("bandwidth stream", 3)).hasSize(3);
    }

    private List<String> awaitServerLines(String prefix, int count) {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        List<String> lines = List.of();
        while (System.nanoTime() < deadline) {
            lines = serverLog.stream().filter(l -> l.startsWith(prefix)).toList();
            if (lines.size() >= count) return lines;
            java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
        }
        return lines;
    }

    @Test
    void latencyCountsMeasuredRoundTripsAndOrdersPercentiles() throws IOException {
        LatencyResult r = new LatencyClient(settings(TcpMode.LATENCY, 1, Duration.ZERO, 64, 2000), new StopSignal(),
                iv -> { }).run();

        assertThat(r.stop().kind()).isEqualTo(StopReason.Kind.COUNT);
        LatencyStats s = r.oneWay();
        assertThat(s.samples()).isEqualTo(2000);
        assertThat(r.intervals().stream().mapToLong(LatencyInterval::messages).sum()).isEqualTo(2000);
        assertThat(s.minMicros()).isPositive();
        assertThat(s.minMicros()).isLessThanOrEqualTo(s.p50Micros());
        assertThat(s.p50Micros()).isLessThanOrEqualTo(s.p99Micros());
        assertThat(s.p99Micros()).isLessThanOrEqualTo(s.p999Micros());
        assertThat(s.p999Micros()).isLessThanOrEqualTo(s.maxMicros());
        assertThat(s.avgMicros()).isBetween(s.minMicros(), s.maxMicros());
        assertThat(r.basis()).contains("round-trip / 2");
        assertThat(r.msgSize()).isEqualTo(64);
    }

    @Test
    void aStopSignalKeepsWhatWasMeasured() throws IOException {
        StopSignal signal = new StopSignal();
        List<BandwidthInterval> seen = new ArrayList<>();
        BandwidthResult r = new BandwidthClient(settings(TcpMode.BANDWIDTH, 1, Duration.ofMinutes(10), 128 << 10, 0),
                signal, iv -> {
                    seen.add(iv);
                    if (seen.size() == 2) signal.stop();
                }).run();

        assertThat(r.stop().kind()).isEqualTo(StopReason.Kind.INTERRUPTED);
        assertThat(r.stop().complete()).isFalse();
        assertThat(r.sentBytes()).isPositive();
        assertThat(r.intervals()).hasSizeBetween(2, 3);
        assertThat(((Reading.Present<ReceiverReport>) r.receiver()).value().bytes()).isEqualTo(r.sentBytes());
    }

    @Test
    void aPeerThatDiesMidRunEndsItWithTheRoundTripsSoFar() throws Exception {
        try (ServerSocketChannel peer = ServerSocketChannel.open()) {
            peer.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            // A server that echoes 500 messages and then goes away.
            Thread.ofPlatform().daemon().start(() -> {
                try (SocketChannel ch = peer.accept()) {
                    SessionHeader.readFully(ch, ByteBuffer.allocate(SessionHeader.BYTES));
                    ByteBuffer msg = ByteBuffer.allocate(64);
                    for (int i = 0; i < 500; i++) {
                        SessionHeader.readFully(ch, msg.clear());
                        SessionHeader.writeFully(ch, msg.flip());
                    }
                } catch (IOException ignored) {
                    // the assertions below say what the client saw
                }
            });
            ClientSettings s = new ClientSettings((InetSocketAddress) peer.getLocalAddress(), Optional.empty(),
                    TcpMode.LATENCY, 1, Duration.ofMinutes(10), 64, Duration.ofSeconds(1), 0, Duration.ZERO);
            LatencyResult r = new LatencyClient(s, new StopSignal(), iv -> { }).run();

            assertThat(r.stop().kind()).isEqualTo(StopReason.Kind.PEER_LOST);
            assertThat(r.oneWay().samples()).isEqualTo(500);
            assertThat(r.intervals().stream().mapToLong(LatencyInterval::messages).sum()).isEqualTo(500);
        }
    }

    @Test
    void aBandwidthPeerThatNeverReportsLeavesTheReceiverAbsent() throws Exception {
        try (ServerSocketChannel peer = ServerSocketChannel.open()) {
            peer.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            Thread.ofPlatform().daemon().start(() -> {
                try (SocketChannel ch = peer.accept()) {
                    ByteBuffer buf = ByteBuffer.allocate(1 << 16);
                    long total = 0;
                    while (total < (4 << 20) && ch.read(buf.clear()) >= 0) total += buf.position();
                } catch (IOException ignored) {
                    // closing without a byte count is the point
                }
            });
            ClientSettings s = new ClientSettings((InetSocketAddress) peer.getLocalAddress(), Optional.empty(),
                    TcpMode.BANDWIDTH, 1, Duration.ofMinutes(10), 128 << 10, Duration.ofMillis(100), 0, Duration.ZERO);
            BandwidthResult r = new BandwidthClient(s, new StopSignal(), iv -> { }).run();

            assertThat(r.stop().kind()).isEqualTo(StopReason.Kind.PEER_LOST);
            assertThat(r.sentBytes()).isGreaterThanOrEqualTo(4 << 20);
            assertThat(r.receiver()).isInstanceOf(Reading.Absent.class);
        }
    }
}
