package dev.railyard.bench.tcp;

/** Bytes all streams sent in one reporting interval, seconds relative to the start of the run. */
public record BandwidthInterval(double startSeconds, double endSeconds, long bytes, double gbitsPerSecond) {

    static BandwidthInterval of(double start, double end, long bytes) {
        return new BandwidthInterval(start, end, bytes, Rates.gbits(bytes, end - start));
    }
}
