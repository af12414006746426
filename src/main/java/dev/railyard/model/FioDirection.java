package dev.railyard.model;

import java.util.OptionalDouble;

/**
 * One direction (read or write) of a fio job. fio reports bandwidth in KiB/s; {@link #megabytesPerSecond()} is
 * 10^6 bytes/s and {@link #mebibytesPerSecond()} is what fio's own text output calls MiB/s (and what people quote from it).
 * Completion-latency percentiles are empty when fio was run without them.
 */
public record FioDirection(long bandwidthKiBps, double iops, long ioBytes, OptionalDouble clatMeanUs,
                           OptionalDouble clatP50Us, OptionalDouble clatP99Us, OptionalDouble clatP999Us) {

    public double megabytesPerSecond() {
        return bandwidthKiBps * 1024.0 / 1e6;
    }

    public double mebibytesPerSecond() {
        return bandwidthKiBps / 1024.0;
    }

    public boolean active() {
        return ioBytes > 0;
    }
}
