package dev.railyard.model;

import java.util.List;
import java.util.Optional;

/**
 * Everything read from one nccl-tests output (or an NCCL_DEBUG=INFO log around it), with the table rows that did
 * not read kept aside.
 */
public record NcclTestsResult(List<NcclTestsRun> runs, Optional<String> ncclVersion, NcclNet net,
                              List<Warn> warnings, List<SkippedRow> skippedRows) {

    public NcclTestsResult {
        runs = List.copyOf(runs);
        warnings = List.copyOf(warnings);
        skippedRows = List.copyOf(skippedRows);
    }

    public NcclTestsResult(List<NcclTestsRun> runs, Optional<String> ncclVersion, NcclNet net, List<Warn> warnings) {
        this(runs, ncclVersion, net, warnings, List.of());
    }

    /** One "NCCL WARN" line: its 1-based line number and the text after "NCCL WARN ". */
    public record Warn(int lineNumber, String text) {}

    /**
     * A table row that did not read, usually the last one of a paste cut short: the rows before it still count.
     * {@code afterSize} is the size of the last whole row before it (0 when none).
     */
    public record SkippedRow(int lineNumber, String line, String reason, long afterSize) {}
}
