package dev.railyard.report;

import dev.railyard.model.Culprit;
import dev.railyard.model.Finding;
import dev.railyard.model.NodeOutcome;
import dev.railyard.model.NodeStatus;
import dev.railyard.model.Severity;
import dev.railyard.model.ValidationReport;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The report as JUnit XML (junit.xml) for CI dashboards, one suite per scope: the nodes' status, each node's
 * findings, the cluster, the pairs, the benchmarks and the culprits. As for {@code check --format junit}: FAIL is a
 * failure, UNKNOWN is skipped (a node that was not reached is skipped with the reason), the rest pass.
 */
public final class ValidationJUnit {

    private ValidationJUnit() {
    }

    public static String render(ValidationReport r) {
        List<String> suites = new ArrayList<>();
        List<Finding> status = r.nodes().stream().map(ValidationJUnit::statusOf).toList();
        suites.add(suite("railyard.validate.nodes", status));
        for (NodeOutcome n : r.nodes()) suites.add(suite("railyard.check." + n.node(), n.findings()));
        suites.add(suite("railyard.validate.cluster", r.clusterFindings()));
        suites.add(suite("railyard.validate.pairs", r.pairFindings()));
        suites.add(suite("railyard.validate.bench", r.benchFindings()));
        suites.add(suite("railyard.validate.culprits", r.culprits().stream().map(ValidationJUnit::culpritOf).toList()));
        List<Finding> all = new ArrayList<>(status);
        all.addAll(r.allFindings());
        r.culprits().forEach(c -> all.add(culpritOf(c)));
        StringBuilder out = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        out.append("<testsuites name=\"railyard.validate.").append(JUnitReport.attr(r.cluster())).append("\" tests=\"")
                .append(all.size()).append("\" failures=\"").append(count(all, Severity.FAIL))
                .append("\" errors=\"0\" skipped=\"").append(count(all, Severity.UNKNOWN)).append("\">\n");
        suites.forEach(out::append);
        return out.append("</testsuites>\n").toString();
    }

    /** A node's status as a finding, so the same testcase rules apply: not reached is UNKNOWN, never a pass. */
    private static Finding statusOf(NodeOutcome n) {
        return Finding.of("validate.node", n.status() == NodeStatus.COMPLETED ? Severity.PASS : Severity.UNKNOWN,
                n.node(), n.status().name().toLowerCase(Locale.ROOT) + (n.detail().isBlank() ? "" : ": " + n.detail()),
                "completed", "");
    }

    private static Finding culpritOf(Culprit c) {
        return Finding.of("validate.culprit." + c.kind().name().toLowerCase(Locale.ROOT), c.severity(), c.subject(),
                c.evidence(), "no culprit", c.remediation());
    }

    private static String suite(String name, List<Finding> findings) {
        StringBuilder out = new StringBuilder();
        out.append("  <testsuite name=\"").append(JUnitReport.attr(name)).append("\" tests=\"").append(findings.size())
                .append("\" failures=\"").append(count(findings, Severity.FAIL)).append("\" errors=\"0\" skipped=\"")
                .append(count(findings, Severity.UNKNOWN)).append("\">\n");
        for (Finding f : findings) JUnitReport.testcase(out, "    ", f);
        return out.append("  </testsuite>\n").toString();
    }

    private static long count(List<Finding> findings, Severity s) {
        return findings.stream().filter(f -> f.severity() == s).count();
    }
}
