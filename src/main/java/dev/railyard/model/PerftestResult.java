package dev.railyard.model;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Everything read from one perftest output: the header blocks (a log may hold the server's and the client's),
 * the bandwidth or latency rows in order, warnings, and recognised failures. A run can have both rows and a
 * failure (a sweep that died at 128 KiB), so failures are data here, not exceptions.
 */
public record PerftestResult(
        List<PerftestHeader> headers,
        List<BwRow> bandwidth,
        List<LatencyRow> latency,
        List<String> warnings,
        List<PerftestFailure> failures) {

    public PerftestResult {
        headers = List.copyOf(headers);
        bandwidth = List.copyOf(bandwidth);
        latency = List.copyOf(latency);
        warnings = List.copyOf(warnings);
        failures = List.copyOf(failures);
    }

    public boolean failed() {
        return !failures.isEmpty();
    }

    public Optional<PerftestHeader> header() {
        return headers.stream().findFirst();
    }

    /** The row of the largest message size; the last such row when a log repeats it. */
    public Optional<BwRow> largestBandwidthRow() {
        return bandwidth.stream().max(Comparator.comparingLong(BwRow::bytes));
    }

    /** The best (highest) average bandwidth of the sweep: perftest -a runs peak before the largest size. */
    public Optional<BwRow> bestBandwidthRow() {
        return bandwidth.stream().max(Comparator.comparingDouble(BwRow::averageGbps));
    }

    public Optional<LatencyRow> smallestLatencyRow() {
        return latency.stream().min(Comparator.comparingLong(LatencyRow::bytes));
    }
}
