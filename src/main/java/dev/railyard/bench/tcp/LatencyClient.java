package dev.railyard.bench.tcp;

import dev.railyard.model.LatencyInterval;
import dev.railyard.model.LatencyResult;
import dev.railyard.model.LatencyStats;
import dev.railyard.model.StopReason;

import java.io.IOException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * Ping-pong on one TCP_NODELAY connection from the calling thread: write a message, block until the echo is
 * back, record the round trip. Round trips during the warm-up are not recorded, like sockperf's warm-up.
 */
public final class LatencyClient {

    private final ClientSettings settings;
    private final StopSignal signal;
    private final Consumer<LatencyInterval> progress;

    public LatencyClient(ClientSettings settings, StopSignal signal, Consumer<LatencyInterval> progress) {
        this.settings = settings;
        this.signal = signal;
        this.progress = progress;
    }

    public LatencyResult run() throws IOException {
        try (SocketChannel ch = Connections.open(settings)) {
            ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
            return pingPong(ch);
        }
    }

    private LatencyResult pingPong(SocketChannel ch) {
        ByteBuffer out = ByteBuffer.allocateDirect(settings.msgSize());
        ByteBuffer in = ByteBuffer.allocateDirect(settings.msgSize());
        long start = System.nanoTime();
        long end = settings.deadlineFrom(start);
        long warmupEnd = Math.min(end, start + settings.warmup().toNanos());
        long limit = settings.count() == 0 ? Long.MAX_VALUE : settings.count();
        long[] rtts = new long[1 << 16];
        int n = 0;
        List<LatencyInterval> intervals = new ArrayList<>();
        long intervalNanos = settings.interval().toNanos();
        long markTime = warmupEnd;
        int markIndex = 0;
        StopReason stop;
        while (true) {
            long t0 = System.nanoTime();
            if (t0 >= end) {
                stop = StopReason.of(StopReason.Kind.DURATION);
                break;
            }
            if (n >= limit) {
                stop = StopReason.of(StopReason.Kind.COUNT);
                break;
            }
            if (signal.stopped()) {
                stop = StopReason.of(StopReason.Kind.INTERRUPTED);
                break;
            }
            try {
                out.clear();
                SessionHeader.writeFully(ch, out);
                in.clear();
                SessionHeader.readFully(ch, in);
            } catch (IOException e) {
                stop = new StopReason(StopReason.Kind.PEER_LOST, e.getMessage() == null ? e.toString() : e.getMessage());
                break;
            }
            long t1 = System.nanoTime();
            if (t0 < warmupEnd) continue;
            if (n == rtts.length) rtts = Arrays.copyOf(rtts, Math.min(Integer.MAX_VALUE - 8, n * 2));
            rtts[n++] = t1 - t0;
            if (t1 - markTime >= intervalNanos) {
                intervals.add(interval(start, markTime, t1, rtts, markIndex, n));
                markTime = t1;
                markIndex = n;
            }
        }
        long stopped = System.nanoTime();
        if (n > markIndex) intervals.add(interval(start, markTime, stopped, rtts, markIndex, n));
        double measured = Math.max(0, stopped - warmupEnd) / 1e9;
        return new LatencyResult(settings.server().getHostString(), settings.server().getPort(), settings.msgSize(),
                (warmupEnd - start) / 1e9, measured, LatencyStats.oneWayFromRoundTrips(rtts, n), LatencyResult.BASIS,
                intervals, stop);
    }

    private LatencyInterval interval(long start, long from, long to, long[] rtts, int lo, int hi) {
        long sum = 0;
        for (int i = lo; i < hi; i++) sum += rtts[i];
        LatencyInterval iv = new LatencyInterval((from - start) / 1e9, (to - start) / 1e9, hi - lo,
                hi > lo ? sum / (double) (hi - lo) / 2000.0 : 0);
        progress.accept(iv);
        return iv;
    }
}
