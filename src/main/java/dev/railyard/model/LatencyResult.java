package dev.railyard.model;

import java.util.List;

/**
 * A ping-pong run. Messages sent during the warm-up are not in the statistics (sockperf does the same).
 * {@code basis} says how one-way numbers were derived, so nobody compares them with an RTT by mistake.
 */
public record LatencyResult(String server, int port, int msgSize, double warmupSeconds, double seconds,
                            LatencyStats oneWay, String basis, List<LatencyInterval> intervals,
                            StopReason stop) implements TcpResult {

    public static final String BASIS = "one-way = round-trip / 2 (as sockperf reports)";

    public LatencyResult {
        intervals = List.copyOf(intervals);
    }
}
