package dev.railyard.model;

import java.util.List;
import java.util.Optional;

/** Everything read from one nccl-tests output (or an NCCL_DEBUG=INFO log around it). */
public record NcclTestsResult(List<NcclTestsRun> runs, Optional<String> ncclVersion, NcclNet net,
                              List<Warn> warnings) {

    public NcclTestsResult {
        runs = List.copyOf(runs);
        warnings = List.copyOf(warnings);
    }

    /** One "NCCL WARN" line: its 1-based line number and the text after "NCCL WARN ". */
    public record Warn(int lineNumber, String text) {}
}
