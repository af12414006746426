package dev.railyard.model;

import java.util.OptionalLong;

/**
 * One size of an nccl-tests sweep. {@code redop} and {@code root} are empty in the old layout (no root column;
 * alltoall printed no redop). Bandwidths are nccl-tests' GB/s (10^9 bytes per second).
 */
public record NcclTestsRow(long sizeBytes, long count, String type, String redop, String root,
                           Measurement outOfPlace, Measurement inPlace) {

    /**
     * Time, algbw, busbw and the #wrong count of one placement. {@code wrong} is empty where nccl-tests printed
     * N/A: validation off (-c 0) or, for alltoall, in-place is not checked.
     */
    public record Measurement(double timeUs, double algbwGBps, double busbwGBps, OptionalLong wrong) {

        public long wrongOrZero() {
            return wrong.orElse(0);
        }
    }

    public long wrong() {
        return outOfPlace.wrongOrZero() + inPlace.wrongOrZero();
    }
}
