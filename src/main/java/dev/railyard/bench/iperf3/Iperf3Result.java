package dev.railyard.bench.iperf3;

import java.util.List;
import java.util.OptionalLong;

/**
 * One iperf3 --json client run. Gb/s are 10^9 bits per second, as iperf3 prints them. retransmits is empty for
 * UDP and for the receiver side, where iperf3 does not count them.
 */
public record Iperf3Result(
        String version,
        String protocol,
        int streams,
        List<Iperf3Interval> intervals,
        double sentGbps,
        double receivedGbps,
        long sentBytes,
        long receivedBytes,
        double seconds,
        OptionalLong retransmits) {

    public Iperf3Result {
        intervals = List.copyOf(intervals);
    }
}
