package dev.railyard.diagnose;

import dev.railyard.model.Severity;

import java.util.List;

/** Everything diagnose found in one input: the tool it recognised and the verdicts, evidence order. */
public record DiagnosisReport(ToolKind tool, List<Diagnosis> diagnoses) {
    public DiagnosisReport {
        diagnoses = List.copyOf(diagnoses);
    }

    public Severity worst() {
        return diagnoses.stream().map(Diagnosis::severity).reduce(Severity.PASS, (a, b) -> b.atLeast(a) ? b : a);
    }

    public boolean failed() {
        return worst() == Severity.FAIL;
    }
}
