package dev.railyard.report;

import dev.railyard.model.Finding;
import dev.railyard.model.NotJudged;
import dev.railyard.model.Severity;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * check --format json (docs/json.md): {schemaVersion, node, summary: {PASS: n, INFO: n, UNKNOWN: n, WARN: n, FAIL: n},
 * notJudged: [{area, reason}], findings: [{id, severity, subject, observed, expected, remediation}]}.
 */
public final class FindingsJson {

    /** The document; summary has every severity, zeros included, so scripts need no defaults. */
    record Document(String node, Map<Severity, Long> summary, List<NotJudged> notJudged, List<Finding> findings) {}

    private FindingsJson() {
    }

    public static String render(String node, List<Finding> findings, List<NotJudged> notJudged) {
        Map<Severity, Long> summary = new LinkedHashMap<>();
        for (Severity s : FindingsText.ORDER) summary.put(s, findings.stream().filter(f -> f.severity() == s).count());
        return Json.write(new Document(node, summary, notJudged, findings)) + "\n";
    }
}
