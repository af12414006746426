package dev.railyard.model;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * One table of an nccl-tests output with the header lines before it; a log can hold several (one per job).
 * {@code avgBusBandwidth} is nccl-tests' "# Avg bus bandwidth", a mean over every size in the sweep: small
 * sizes drag it down, so verdicts use {@link #largest()} instead.
 */
public record NcclTestsRun(
        OptionalInt nThread,
        OptionalInt nGpus,
        List<NcclRankDevice> devices,
        List<NcclTestsRow> rows,
        OptionalLong outOfBoundsValues,
        Optional<Boolean> outOfBoundsOk,
        OptionalDouble avgBusBandwidth) {

    public NcclTestsRun {
        devices = List.copyOf(devices);
        rows = List.copyOf(rows);
    }

    public Optional<NcclTestsRow> largest() {
        return rows.stream().max(Comparator.comparingLong(NcclTestsRow::sizeBytes));
    }

    public long totalWrong() {
        return rows.stream().mapToLong(NcclTestsRow::wrong).sum();
    }
}
