package dev.railyard.diagnose;

import dev.railyard.model.Severity;

import java.util.List;

/** Everything diagnose found in one input: the tool it recognised, the verdicts in evidence order, the numbers. */
public record DiagnosisReport(ToolKind tool, List<Diagnosis> diagnoses, Parsed parsed) {
    public DiagnosisReport {
        diagnoses = List.copyOf(diagnoses);
    }

    public Severity worst() {
        return diagnoses.stream().map(Diagnosis::severity).reduce(Severity.PASS, Severity::max);
    }

    public boolean failed() {
        return worst() == Severity.FAIL;
    }
}
