package dev.railyard.model;

/** Round trips completed in one reporting interval and their mean one-way latency. */
public record LatencyInterval(double startSeconds, double endSeconds, long messages, double avgOneWayMicros) {
}
