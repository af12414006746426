package dev.railyard.diagnose;

import java.util.List;

/** A recogniser's answer: its verdicts on the output and what it parsed from it. */
public record ToolReading(List<Diagnosis> diagnoses, Parsed parsed) {

    public ToolReading {
        diagnoses = List.copyOf(diagnoses);
    }
}
