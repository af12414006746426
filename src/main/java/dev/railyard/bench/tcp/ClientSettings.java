package dev.railyard.bench.tcp;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Optional;

/**
 * What a client run does. {@code duration} includes the latency warm-up (as sockperf's -t does); a zero
 * {@code count} means no message limit, and a {@code duration} of {@link Duration#ZERO} means none.
 */
public record ClientSettings(InetSocketAddress server, Optional<InetAddress> bind, TcpMode mode, int streams,
                             Duration duration, int msgSize, Duration interval, long count, Duration warmup) {

    public ClientSettings {
        if (streams < 1) throw new IllegalArgumentException("streams must be >= 1");
        if (msgSize < 1 || msgSize > SessionHeader.MAX_MSG_SIZE) {
            throw new IllegalArgumentException("message size must be 1 B .. 64 MiB");
        }
        if (duration.isZero() && count == 0) throw new IllegalArgumentException("need a duration or a count");
    }

    /** When a run started at {@code startNanos} must end; never overflows when there is no duration. */
    long deadlineFrom(long startNanos) {
        if (duration.isZero()) return Long.MAX_VALUE;
        long end = startNanos + duration.toNanos();
        return end < startNanos ? Long.MAX_VALUE : end;
    }
}
