package dev.railyard.bench.iperf3;

/** One reporting interval summed over all streams; omitted intervals are the warm-up that -O excludes. */
public record Iperf3Interval(double startSeconds, double endSeconds, double gbps, long bytes, long retransmits,
                             boolean omitted) {}
