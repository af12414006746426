package dev.railyard.report;

import dev.railyard.model.Finding;

import java.util.List;

/** Findings for scripts: a JSON array of {id, severity, subject, observed, expected, remediation}. */
public final class FindingsJson {

    private FindingsJson() {
    }

    public static String render(List<Finding> findings) {
        return Json.write(findings) + "\n";
    }
}
