package dev.railyard.report;

import dev.railyard.model.Culprit;
import dev.railyard.model.Finding;
import dev.railyard.model.NodeOutcome;
import dev.railyard.model.NodeStatus;
import dev.railyard.model.Severity;
import dev.railyard.model.SizeCurve;
import dev.railyard.model.ValidationReport;

import java.util.Comparator;
import java.util.List;

/**
 * The report as one self-contained HTML page (index.html): inline CSS and SVG, no script, font or stylesheet from
 * anywhere else, so it opens offline and from an archived CI artifact. Every string from a node, the spec or a tool
 * is escaped. It reads top down as a person asks: the verdict and what keeps it from a clean pass, what was measured,
 * who is to blame, which nodes need a look, the pairs, then every finding. A section with nothing to say is left out.
 */
public final class ValidationHtml {

    private ValidationHtml() {
    }

    public static String render(ValidationReport r) {
        StringBuilder h = new StringBuilder(16_384);
        String title = "Railyard validate: " + r.cluster() + " (" + r.runId() + ")";
        h.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
                .append("<title>").append(Html.esc(title)).append("</title>\n<style>\n").append(ValidationCss.CSS)
                .append("</style>\n</head>\n<body>\n");
        List<PairMatrix> matrices = PairMatrix.of(r);
        header(h, r, matrices);
        measurements(h, r);
        culprits(h, r, matrices);
        nodes(h, r);
        PairSection.render(h, matrices);
        findings(h, r);
        h.append("<footer>railyard validate report, schemaVersion ").append(r.schemaVersion())
                .append(" · report.json, report.md and junit.xml beside this page hold the same run</footer>\n");
        return h.append("</body>\n</html>\n").toString();
    }

    private static void header(StringBuilder h, ValidationReport r, List<PairMatrix> matrices) {
        Severity verdict = r.severity();
        h.append("<header>\n<h1>").append(Html.esc(r.cluster())).append("</h1>\n");
        h.append("<section id=\"verdict-block\" class=\"verdict sev-").append(verdict.name()).append("\">\n<p class=\"verdict-line\">")
                .append("<span id=\"verdict\" class=\"badge big sev-").append(verdict.name()).append("\">").append(verdict.name())
                .append("</span>");
        if (!r.complete()) h.append(" <span class=\"badge big incomplete\">incomplete</span>");
        h.append(" <span id=\"verdict-reason\">").append(Html.esc(VerdictReasons.headline(r))).append("</span></p>\n");
        List<String> reasons = VerdictReasons.of(r, matrices);
        if (!reasons.isEmpty()) {
            h.append("<ul class=\"reasons\">\n");
            for (String s : reasons) h.append("<li>").append(Html.esc(s)).append("</li>\n");
            h.append("</ul>\n");
        }
        h.append("</section>\n<dl class=\"meta\">");
        meta(h, "run", r.runId());
        meta(h, "launcher", r.launcher());
        meta(h, "started", Quantities.time(r.startedAt()));
        meta(h, "finished", r.finishedAt().map(f -> Quantities.time(f) + " (" + Quantities.duration(
                java.time.Duration.between(r.startedAt(), f)) + ")").orElse("not finished"));
        meta(h, "nodes", r.nodes().size() + " (" + r.nodes().stream()
                .filter(n -> n.status() == NodeStatus.COMPLETED).count() + " completed)");
        if (!r.pairs().isEmpty()) meta(h, "pair tests", r.pairs().size() + " in " + r.rounds() + " rounds");
        meta(h, "findings", FindingsText.summary(r.allFindings()));
        h.append("</dl>\n</header>\n");
    }

    private static void meta(StringBuilder h, String k, String v) {
        h.append("<dt>").append(Html.esc(k)).append("</dt><dd>").append(Html.esc(v)).append("</dd>");
    }

    /** One row per benchmark with its number (or why there is none), then the size curves. */
    private static void measurements(StringBuilder h, ValidationReport r) {
        List<MeasurementSummary.Line> lines = MeasurementSummary.of(r);
        if (lines.isEmpty() && r.curves().isEmpty()) return;
        h.append("<section id=\"measurements\">\n<h2>Measurements</h2>\n");
        if (!lines.isEmpty()) {
            h.append("<table class=\"measurements\">\n<thead><tr><th>benchmark</th><th>where</th><th>result</th></tr></thead>\n<tbody>\n");
            for (MeasurementSummary.Line l : lines) {
                h.append("<tr class=\"").append(l.measured() ? "measured" : "not-measured").append("\"><td>")
                        .append(Html.esc(l.benchmark())).append("</td><td>").append(Html.esc(l.where()))
                        .append("</td><td>").append(Html.esc(l.result())).append("</td></tr>\n");
            }
            h.append("</tbody>\n</table>\n");
        }
        if (!r.curves().isEmpty()) {
            h.append("<div class=\"maps\" id=\"curves\">\n");
            for (SizeCurve c : r.curves()) {
                h.append("<figure>").append(CurveSvg.render(c)).append("<figcaption>").append(Html.esc(c.title()))
                        .append(" · ").append(Html.esc(c.subject())).append("</figcaption></figure>\n");
            }
            h.append("</div>\n");
        }
        h.append("</section>\n");
    }

    private static void culprits(StringBuilder h, ValidationReport r, List<PairMatrix> matrices) {
        if (r.culprits().isEmpty()) return;
        h.append("<section id=\"culprits\">\n<h2>Culprits</h2>\n");
        int i = 0;
        for (Culprit c : r.culprits()) {
            h.append("<div class=\"culprit sev-").append(c.severity().name()).append("\" id=\"culprit-").append(i++)
                    .append("\" data-kind=\"").append(c.kind().name()).append("\" data-network=\"")
                    .append(Html.esc(c.network())).append("\">\n<h3><span class=\"badge sev-").append(c.severity().name())
                    .append("\">").append(c.severity().name()).append("</span> ").append(Html.esc(c.subject()))
                    .append("</h3>\n");
            CulpritEvidence.table(h, c, matrices);
            h.append("<details class=\"evidence-words\"><summary>evidence in words</summary><p>").append(Html.esc(c.evidence()))
                    .append("</p></details>\n");
            if (!c.remediation().isBlank()) {
                h.append("<p class=\"fix\">fix:</p><pre><code>").append(Html.esc(c.remediation())).append("</code></pre>\n");
            }
            h.append("</div>\n");
        }
        h.append("</section>\n");
    }

    /** The nodes that need a look, one row each; the ones that completed clean are one line. */
    private static void nodes(StringBuilder h, ValidationReport r) {
        List<NodeOutcome> shown = r.nodes().stream().filter(n -> !clean(n)).toList();
        List<NodeOutcome> clean = r.nodes().stream().filter(ValidationHtml::clean).toList();
        h.append("<section id=\"nodes\">\n<h2>Nodes</h2>\n");
        if (!clean.isEmpty()) {
            h.append("<p class=\"clean-nodes\">").append(clean.size() == r.nodes().size() ? "All " : "")
                    .append(clean.size()).append(clean.size() == 1 ? " node" : " nodes")
                    .append(" completed without a FAIL or WARN finding");
            if (clean.size() <= 8) {
                h.append(": ").append(Html.esc(String.join(", ", clean.stream().map(NodeOutcome::node).toList()))).append(".</p>\n");
            } else {
                h.append(".</p>\n<details><summary>their names</summary><p>")
                        .append(Html.esc(String.join(", ", clean.stream().map(NodeOutcome::node).toList()))).append("</p></details>\n");
            }
        }
        if (!shown.isEmpty()) {
            h.append("<table class=\"nodes\">\n<thead><tr><th>node</th><th>status</th>"
                    + "<th>worst</th><th>findings</th><th>detail</th></tr></thead>\n<tbody>\n");
            for (NodeOutcome n : shown) {
                Severity worst = n.findings().stream().map(Finding::severity).reduce(Severity.PASS, Severity::max);
                h.append("<tr class=\"status-").append(n.status().name()).append("\"><td>").append(Html.esc(n.node()))
                        .append("</td><td>").append(n.status().name()).append("</td><td>")
                        .append(n.findings().isEmpty() ? "–" : "<span class=\"badge sev-" + worst.name() + "\">" + worst.name() + "</span>")
                        .append("</td><td>").append(Html.esc(FindingsText.summary(n.findings()))).append("</td><td>")
                        .append(Html.esc(n.detail())).append("</td></tr>\n");
            }
            h.append("</tbody>\n</table>\n");
        }
        h.append("</section>\n");
    }

    static boolean clean(NodeOutcome n) {
        return n.status() == NodeStatus.COMPLETED && n.findings().stream().noneMatch(f -> f.severity().atLeast(Severity.WARN));
    }

    private static void findings(StringBuilder h, ValidationReport r) {
        h.append("<section id=\"findings\">\n<h2>Findings <small>").append(Html.esc(FindingsText.summary(r.allFindings())))
                .append("</small></h2>\n");
        findingTable(h, "Nodes", "node", FindingGroups.nodes(r.nodes()));
        findingTable(h, "Cluster", "cluster", r.clusterFindings());
        findingTable(h, "Pairs", "pairs", r.pairFindings());
        findingTable(h, "Benchmarks", "bench", r.benchFindings());
        h.append("</section>\n");
    }

    /** Worst first; the PASS rows fold away so the problems and their fixes lead. An empty scope is left out. */
    private static void findingTable(StringBuilder h, String title, String scope, List<Finding> findings) {
        if (findings.isEmpty()) return;
        h.append("<div class=\"findings\" data-scope=\"").append(scope).append("\">\n<h3>").append(Html.esc(title))
                .append(" <small>").append(Html.esc(FindingsText.summary(findings))).append("</small></h3>\n");
        List<Finding> sorted = findings.stream().sorted(Comparator.comparing(Finding::severity).reversed()).toList();
        List<Finding> problems = sorted.stream().filter(f -> f.severity() != Severity.PASS).toList();
        List<Finding> passes = sorted.stream().filter(f -> f.severity() == Severity.PASS).toList();
        if (!problems.isEmpty()) rows(h, problems, PROBLEM_ROWS);
        if (!passes.isEmpty()) {
            h.append("<details><summary>").append(passes.size()).append(" PASS</summary>\n");
            rows(h, passes, PASS_ROWS);
            h.append("</details>\n");
        }
        h.append("</div>\n");
    }

    /** Rows a scope shows; past them the page counts the rest, which report.json and report.md hold. */
    static final int PROBLEM_ROWS = 500;
    static final int PASS_ROWS = 100;

    private static void rows(StringBuilder h, List<Finding> all, int max) {
        List<Finding> findings = all.size() <= max ? all : all.subList(0, max);
        h.append("<table class=\"finding-table\">\n<thead><tr><th>severity</th><th>id</th><th>subject</th><th>observed</th>"
                + "<th>expected</th><th>fix</th></tr></thead>\n<tbody>\n");
        for (Finding f : findings) {
            h.append("<tr class=\"finding sev-").append(f.severity().name()).append("\"><td><span class=\"badge sev-")
                    .append(f.severity().name()).append("\">").append(f.severity().name()).append("</span></td><td>")
                    .append(Html.esc(f.id())).append("</td><td>").append(Html.esc(f.subject())).append("</td><td>")
                    .append(Html.esc(f.observed())).append("</td><td>").append(Html.esc(f.expected())).append("</td><td>");
            if (!f.remediation().isEmpty()) {
                h.append(f.severity() == Severity.PASS ? "use: " : "").append("<code>").append(Html.esc(f.remediation()))
                        .append("</code>");
            }
            h.append("</td></tr>\n");
        }
        h.append("</tbody>\n</table>\n");
        if (all.size() > max) {
            h.append("<p class=\"more\">and ").append(all.size() - max).append(" more of the same severity or better; "
                    + "report.json holds every one</p>\n");
        }
    }
}
