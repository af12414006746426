package dev.railyard.model;

/** Bytes all streams sent in one reporting interval, seconds relative to the start of the run. */
public record BandwidthInterval(double startSeconds, double endSeconds, long bytes, double gbitsPerSecond) {

    public static BandwidthInterval of(double start, double end, long bytes) {
        return new BandwidthInterval(start, end, bytes, Rates.gbits(bytes, end - start));
    }
}
