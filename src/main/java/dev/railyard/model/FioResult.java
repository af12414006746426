package dev.railyard.model;

import java.util.List;

/** A fio --output-format=json run. */
public record FioResult(String version, List<FioJob> jobs) {
    public FioResult {
        jobs = List.copyOf(jobs);
    }
}
