package dev.railyard.cli;

import dev.railyard.diagnose.Diagnosis;
import dev.railyard.diagnose.DiagnosisReport;
import dev.railyard.diagnose.Parsed;
import dev.railyard.model.Severity;

import java.util.List;

/**
 * diagnose --format json: {tool, verdict, findings: [Finding + evidence], parsed: {numbers, result}}. Each finding
 * carries the model Finding's fields flat, so a script reads diagnose and check findings the same way.
 */
record DiagnoseJson(String tool, String toolLabel, Severity verdict, List<Entry> findings, Parsed parsed) {

    record Entry(String id, Severity severity, String subject, String observed, String expected,
                 String remediation, int lineNumber, String evidence, String source) {}

    /** What --format json prints when the input could not be read or recognised: exit 2, and why. */
    record Unrecognised(boolean recognised, String reason, String hint) {}

    static DiagnoseJson of(DiagnosisReport r) {
        return new DiagnoseJson(r.tool().name(), r.tool().label(), r.worst(),
                r.diagnoses().stream().map(DiagnoseJson::entry).toList(), r.parsed());
    }

    private static Entry entry(Diagnosis d) {
        var f = d.finding();
        return new Entry(f.id(), f.severity(), f.subject(), f.observed(), f.expected(), f.remediation(),
                d.lineNumber(), d.line(), d.source());
    }
}
