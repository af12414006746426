package dev.railyard.model;

/** The result of one `railyard bench tcp client` run: bandwidth or latency, each saying why it stopped. */
public sealed interface TcpResult permits BandwidthResult, LatencyResult {

    String server();

    int port();

    StopReason stop();
}
