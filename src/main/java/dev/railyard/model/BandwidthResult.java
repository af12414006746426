package dev.railyard.model;

import dev.railyard.model.Reading;

import java.util.List;

/**
 * A bandwidth run. Sender numbers are counted by the client; the receiver's come back from the server over the
 * same connections, like iperf3's "receiver" line. The receiver reading is absent when the peer was lost first.
 */
public record BandwidthResult(String server, int port, int streams, int msgSize, double seconds,
                              List<BandwidthInterval> intervals, long sentBytes, double senderGbitsPerSecond,
                              Reading<ReceiverReport> receiver, StopReason stop) implements TcpResult {

    public BandwidthResult {
        intervals = List.copyOf(intervals);
    }
}
