package dev.railyard.diagnose;

import dev.railyard.model.Severity;

import java.util.List;

/**
 * Everything diagnose found in one input: the tool it recognised, the verdicts in evidence order, the numbers, and
 * what pasting had added that was taken away before reading (markdown, prefixes, borders).
 */
public record DiagnosisReport(ToolKind tool, List<Diagnosis> diagnoses, Parsed parsed, List<String> ignored) {
    public DiagnosisReport {
        diagnoses = List.copyOf(diagnoses);
        ignored = List.copyOf(ignored);
    }

    public DiagnosisReport(ToolKind tool, List<Diagnosis> diagnoses, Parsed parsed) {
        this(tool, diagnoses, parsed, List.of());
    }

    public DiagnosisReport withIgnored(String more) {
        List<String> all = new java.util.ArrayList<>(ignored);
        all.add(more);
        return new DiagnosisReport(tool, diagnoses, parsed, all);
    }

    public Severity worst() {
        return diagnoses.stream().map(Diagnosis::severity).reduce(Severity.PASS, Severity::max);
    }

    public boolean failed() {
        return worst() == Severity.FAIL;
    }
}
