package dev.railyard.bench.tcp;

import dev.railyard.model.BandwidthInterval;
import dev.railyard.model.BandwidthResult;
import dev.railyard.model.LatencyInterval;
import dev.railyard.model.LatencyResult;
import dev.railyard.model.LatencyStats;
import dev.railyard.model.ReceiverReport;
import dev.railyard.model.StopReason;
import dev.railyard.model.TcpResult;

import dev.railyard.model.Reading;

import java.util.Locale;

/** Human-readable lines in iperf3's and sockperf's shape, so numbers can be compared by eye. */
public final class TcpResultText {

    private TcpResultText() {
    }

    public static String progress(BandwidthInterval iv) {
        return fmt("[SUM] %6.2f-%-6.2f sec  %s  %7.2f Gbits/sec", iv.startSeconds(), iv.endSeconds(),
                bytes(iv.bytes()), iv.gbitsPerSecond());
    }

    public static String progress(LatencyInterval iv) {
        return fmt("%6.2f-%-6.2f sec  %9d round trips  avg %8.2f usec one-way", iv.startSeconds(), iv.endSeconds(),
                iv.messages(), iv.avgOneWayMicros());
    }

    /** The line before the interval lines, as iperf3 prints "Connecting to host ..." before its own. */
    public static String header(ClientSettings s) {
        String to = fmt("Connecting to host %s, port %d: ", s.server().getHostString(), s.server().getPort());
        return switch (s.mode()) {
            case BANDWIDTH -> to + fmt("%d stream(s), %s writes", s.streams(), bytes(s.msgSize()).trim());
            case LATENCY -> to + fmt("%d B ping-pong", s.msgSize());
        };
    }

    public static String render(TcpResult result) {
        return switch (result) {
            case BandwidthResult b -> bandwidth(b);
            case LatencyResult l -> latency(l);
        };
    }

    private static String bandwidth(BandwidthResult b) {
        StringBuilder sb = new StringBuilder();
        sb.append(fmt("bandwidth to %s port %d: %d stream(s), %s writes%n", b.server(), b.port(), b.streams(),
                bytes(b.msgSize()).trim()));
        sb.append(fmt("[SUM] %6.2f-%-6.2f sec  %s  %7.2f Gbits/sec  sender%n", 0.0, b.seconds(), bytes(b.sentBytes()),
                b.senderGbitsPerSecond()));
        switch (b.receiver()) {
            case Reading.Present<ReceiverReport>(ReceiverReport r) -> sb.append(fmt(
                    "[SUM] %6.2f-%-6.2f sec  %s  %7.2f Gbits/sec  receiver%n", 0.0, r.seconds(), bytes(r.bytes()),
                    r.gbitsPerSecond()));
            case Reading.Absent<ReceiverReport>(String why) -> sb.append("receiver: ").append(why).append('\n');
            case Reading.Failed<ReceiverReport>(String path, String cause) ->
                    sb.append("receiver: ").append(cause).append('\n');
        }
        return sb.append(stop(b.stop())).toString();
    }

    private static String latency(LatencyResult l) {
        LatencyStats s = l.oneWay();
        StringBuilder sb = new StringBuilder();
        sb.append(fmt("latency to %s port %d: %d B ping-pong, TCP_NODELAY, warm-up %.2f s excluded%n", l.server(),
                l.port(), l.msgSize(), l.warmupSeconds()));
        sb.append(fmt("%d round trips in %.3f s; %s%n", s.samples(), l.seconds(), l.basis()));
        sb.append(fmt("avg %.3f usec  min %.3f  p50 %.3f  p99 %.3f  p99.9 %.3f  max %.3f usec%n", s.avgMicros(),
                s.minMicros(), s.p50Micros(), s.p99Micros(), s.p999Micros(), s.maxMicros()));
        return sb.append(stop(l.stop())).toString();
    }

    private static String stop(StopReason stop) {
        return switch (stop.kind()) {
            case DURATION, COUNT -> "";
            case INTERRUPTED -> "interrupted: results above are what was measured until then\n";
            case PEER_LOST -> "peer lost (" + stop.detail() + "): results above are what was measured until then\n";
        };
    }

    /** Binary units like iperf3's Transfer column. */
    static String bytes(long n) {
        if (n >= 1L << 30) return fmt("%7.2f GBytes", n / (double) (1L << 30));
        if (n >= 1L << 20) return fmt("%7.2f MBytes", n / (double) (1L << 20));
        if (n >= 1L << 10) return fmt("%7.2f KBytes", n / (double) (1L << 10));
        return fmt("%7d Bytes ", n);
    }

    private static String fmt(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
