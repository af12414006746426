package dev.railyard.model;

import java.util.OptionalDouble;

/**
 * One row of a latency table, in microseconds. Old perftest prints only t_avg and t_stdev, newer ones add
 * min/max/typical and the 99 / 99.9 percentiles, so every column but the size and iterations is optional.
 */
public record LatencyRow(
        long bytes,
        long iterations,
        OptionalDouble minUs,
        OptionalDouble maxUs,
        OptionalDouble typicalUs,
        OptionalDouble avgUs,
        OptionalDouble stdevUs,
        OptionalDouble p99Us,
        OptionalDouble p999Us) {

    /** The figure perftest users quote: t_typical when printed, else t_avg. */
    public OptionalDouble headlineUs() {
        return typicalUs.isPresent() ? typicalUs : avgUs;
    }
}
