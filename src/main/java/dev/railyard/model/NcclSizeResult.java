package dev.railyard.model;

import java.util.Optional;

/** One row of the table: a message size measured out of place and (where the collective allows) in place. */
public record NcclSizeResult(long bytes, long count, String type, String redop, int root,
                             Timing outOfPlace, Optional<Timing> inPlace) {

    /** time in µs per operation, bandwidths in GB/s, wrong = elements that did not verify (-1 when not checked). */
    public record Timing(double timeUs, double algbwGBps, double busbwGBps, long wrong) {}
}
