package dev.railyard.report;

import dev.railyard.model.Culprit;
import dev.railyard.model.Finding;
import dev.railyard.model.NodeOutcome;
import dev.railyard.model.Severity;
import dev.railyard.model.SizeCurve;
import dev.railyard.model.ValidationReport;

import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The report as one self-contained HTML page (index.html): inline CSS and SVG, no script, font or stylesheet from
 * anywhere else, so it opens offline and from an archived CI artifact. Every string from a node, the spec or a tool
 * is escaped.
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
        header(h, r);
        culprits(h, r);
        nodes(h, r);
        heatmaps(h, r);
        curves(h, r);
        findings(h, r);
        h.append("<footer>railyard validate report, schemaVersion ").append(r.schemaVersion())
                .append(" · report.json, report.md and junit.xml beside this page hold the same run</footer>\n");
        return h.append("</body>\n</html>\n").toString();
    }

    private static void header(StringBuilder h, ValidationReport r) {
        Severity verdict = r.severity();
        h.append("<header>\n<h1>").append(Html.esc(r.cluster())).append(" <span id=\"verdict\" class=\"badge sev-")
                .append(verdict.name()).append("\">").append(verdict.name()).append("</span>");
        if (!r.complete()) h.append(" <span class=\"badge incomplete\">incomplete</span>");
        h.append("</h1>\n<dl class=\"meta\">");
        meta(h, "run", r.runId());
        meta(h, "launcher", r.launcher());
        meta(h, "started", Quantities.time(r.startedAt()));
        meta(h, "finished", r.finishedAt().map(f -> Quantities.time(f) + " (" + Quantities.duration(
                java.time.Duration.between(r.startedAt(), f)) + ")").orElse("not finished"));
        meta(h, "nodes", r.nodes().size() + " (" + r.nodes().stream()
                .filter(n -> n.status() == dev.railyard.model.NodeStatus.COMPLETED).count() + " completed)");
        meta(h, "pair rounds", Integer.toString(r.rounds()));
        meta(h, "pair tests", Integer.toString(r.pairs().size()));
        meta(h, "findings", FindingsText.summary(r.allFindings()));
        h.append("</dl>\n</header>\n");
    }

    private static void meta(StringBuilder h, String k, String v) {
        h.append("<dt>").append(Html.esc(k)).append("</dt><dd>").append(Html.esc(v)).append("</dd>");
    }

    private static void culprits(StringBuilder h, ValidationReport r) {
        h.append("<section id=\"culprits\">\n<h2>Culprits</h2>\n");
        if (r.culprits().isEmpty()) {
            h.append("<p class=\"none\">No culprit: no group of pairs points at a node, a link or a rail.</p>\n");
        }
        int i = 0;
        for (Culprit c : r.culprits()) {
            h.append("<div class=\"culprit sev-").append(c.severity().name()).append("\" id=\"culprit-").append(i++)
                    .append("\" data-kind=\"").append(c.kind().name()).append("\" data-network=\"")
                    .append(Html.esc(c.network())).append("\">\n<h3><span class=\"badge sev-").append(c.severity().name())
                    .append("\">").append(c.severity().name()).append("</span> ").append(Html.esc(c.subject()))
                    .append("</h3>\n<p>").append(Html.esc(c.evidence())).append("</p>\n");
            if (!c.remediation().isBlank()) {
                h.append("<p class=\"fix\">fix:</p><pre><code>").append(Html.esc(c.remediation())).append("</code></pre>\n");
            }
            h.append("</div>\n");
        }
        h.append("</section>\n");
    }

    private static void nodes(StringBuilder h, ValidationReport r) {
        h.append("<section id=\"nodes\">\n<h2>Nodes</h2>\n<table class=\"nodes\">\n<thead><tr><th>node</th><th>status</th>"
                + "<th>worst</th><th>findings</th><th>detail</th></tr></thead>\n<tbody>\n");
        for (NodeOutcome n : r.nodes()) {
            Severity worst = n.findings().stream().map(Finding::severity).reduce(Severity.PASS, Severity::max);
            h.append("<tr class=\"status-").append(n.status().name()).append("\"><td>").append(Html.esc(n.node()))
                    .append("</td><td>").append(n.status().name()).append("</td><td>")
                    .append(n.findings().isEmpty() ? "–" : "<span class=\"badge sev-" + worst.name() + "\">" + worst.name() + "</span>")
                    .append("</td><td>").append(Html.esc(FindingsText.summary(n.findings()))).append("</td><td>")
                    .append(Html.esc(n.detail())).append("</td></tr>\n");
        }
        h.append("</tbody>\n</table>\n</section>\n");
    }

    private static void heatmaps(StringBuilder h, ValidationReport r) {
        h.append("<section id=\"pairs\">\n<h2>Pairs</h2>\n");
        List<PairMatrix> matrices = PairMatrix.of(r);
        if (matrices.isEmpty()) h.append("<p class=\"none\">No pair tests in this run.</p>\n");
        Map<String, List<PairMatrix>> byNetwork = matrices.stream()
                .collect(Collectors.groupingBy(PairMatrix::network, LinkedHashMap::new, Collectors.toList()));
        byNetwork.forEach((network, ms) -> {
            h.append("<div class=\"network\" data-network=\"").append(Html.esc(network)).append("\">\n<h3>")
                    .append(Html.esc(network)).append("</h3>\n<div class=\"maps\">\n");
            for (PairMatrix m : ms) {
                h.append("<figure>").append(HeatmapSvg.render(m)).append("<figcaption>")
                        .append(Html.esc(HeatmapSvg.label(m))).append(" · ").append(m.testedCells()).append(" of ")
                        .append(m.cells().size()).append(" pairs tested")
                        .append(m.median().map(v -> " · median " + Quantities.number(v) + " " + m.kind().unit()).orElse(""))
                        .append("</figcaption></figure>\n");
            }
            h.append("</div>\n</div>\n");
        });
        h.append("<p class=\"legend\"><span class=\"key sev-PASS\"></span>met expect <span class=\"key sev-WARN\"></span>"
                + "below expect (warn) <span class=\"key sev-FAIL\"></span>below expect (fail) "
                + "<span class=\"key sev-UNKNOWN\"></span>no number <span class=\"key sev-INFO\"></span>not judged "
                + "<span class=\"key untested\"></span>not tested <span class=\"key culprit\"></span>culprit · "
                + "hover a cell for its numbers</p>\n</section>\n");
    }

    private static void curves(StringBuilder h, ValidationReport r) {
        h.append("<section id=\"curves\">\n<h2>Bandwidth against message size</h2>\n");
        if (r.curves().isEmpty()) h.append("<p class=\"none\">No size sweeps in this run.</p>\n");
        h.append("<div class=\"maps\">\n");
        for (SizeCurve c : r.curves()) {
            h.append("<figure>").append(CurveSvg.render(c)).append("<figcaption>").append(Html.esc(c.title()))
                    .append(" · ").append(Html.esc(c.subject())).append("</figcaption></figure>\n");
        }
        h.append("</div>\n</section>\n");
    }

    private static void findings(StringBuilder h, ValidationReport r) {
        h.append("<section id=\"findings\">\n<h2>Findings</h2>\n");
        findingTable(h, "Cluster", "cluster", r.clusterFindings());
        findingTable(h, "Pairs", "pairs", r.pairFindings());
        findingTable(h, "Benchmarks", "bench", r.benchFindings());
        for (NodeOutcome n : r.nodes()) findingTable(h, "Node " + n.node(), "node", n.findings());
        h.append("</section>\n");
    }

    /** Worst first; the PASS rows fold away so the problems and their fixes lead. */
    private static void findingTable(StringBuilder h, String title, String scope, List<Finding> findings) {
        h.append("<div class=\"findings\" data-scope=\"").append(scope).append("\">\n<h3>").append(Html.esc(title))
                .append(" <small>").append(Html.esc(FindingsText.summary(findings))).append("</small></h3>\n");
        if (findings.isEmpty()) {
            h.append("<p class=\"none\">none</p>\n</div>\n");
            return;
        }
        List<Finding> sorted = findings.stream().sorted(Comparator.comparing(Finding::severity).reversed()).toList();
        List<Finding> problems = sorted.stream().filter(f -> f.severity() != Severity.PASS).toList();
        List<Finding> passes = sorted.stream().filter(f -> f.severity() == Severity.PASS).toList();
        if (!problems.isEmpty()) rows(h, problems);
        if (!passes.isEmpty()) {
            h.append("<details><summary>").append(passes.size()).append(" PASS</summary>\n");
            rows(h, passes);
            h.append("</details>\n");
        }
        h.append("</div>\n");
    }

    private static void rows(StringBuilder h, List<Finding> findings) {
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
    }
}
