package dev.railyard.bench.sockperf;

import java.util.OptionalDouble;
import java.util.OptionalLong;

/** What a sockperf client run measured: latency (ping-pong / under-load) or throughput. */
public sealed interface SockperfResult {

    /**
     * Latency in µs. sockperf reports half the round trip unless run with --full-rtt, when {@code roundTrip} is
     * true and the numbers are whole round trips. Percentiles a short summary leaves out are empty.
     */
    record PingPong(double avgUs, double stdDevUs, boolean roundTrip, OptionalLong observations,
                    OptionalDouble minUs, OptionalDouble p50Us, OptionalDouble p99Us, OptionalDouble p999Us,
                    OptionalDouble maxUs) implements SockperfResult {}

    /** Throughput ("sockperf throughput"): messages per second and bandwidth as sockperf states it. */
    record Throughput(long messagesSent, double seconds, long messagesPerSecond, double megabytesPerSecond,
                      double gbps) implements SockperfResult {}
}
