package dev.railyard.bench.fio;

import dev.railyard.model.FioJob;

import java.util.List;

/**
 * fio's plain-text output, any version: the jobs (per job, or per group with --group_reporting), the "Run status
 * group" summaries, and the lines where fio reported a failure (a non-zero err=, a killed job, an I/O error).
 */
public record FioTextResult(String version, List<FioJob> jobs, List<FioGroup> groups, List<Failure> failures) {

    public FioTextResult {
        jobs = List.copyOf(jobs);
        groups = List.copyOf(groups);
        failures = List.copyOf(failures);
    }

    /** killed: the job was stopped by a signal (its numbers cover part of the run); otherwise it reported an error. */
    public record Failure(boolean killed, String what, int lineNumber, String line) {}
}
