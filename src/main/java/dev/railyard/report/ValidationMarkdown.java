package dev.railyard.report;

import dev.railyard.model.Culprit;
import dev.railyard.model.Finding;
import dev.railyard.model.NodeOutcome;
import dev.railyard.model.NodeStatus;
import dev.railyard.model.Severity;
import dev.railyard.model.SizeCurve;
import dev.railyard.model.ValidationReport;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;

/**
 * The report as Markdown (report.md), for a ticket or a pull request: the same sections as the HTML page (the verdict
 * and its reasons, the measurements, culprits, nodes that need a look, pairs, findings; empty ones left out), the
 * heatmaps as matrices (a cell marked ** is below expect, !! is a culprit) and the curves as tables.
 */
public final class ValidationMarkdown {

    private ValidationMarkdown() {
    }

    public static String render(ValidationReport r) {
        StringBuilder m = new StringBuilder();
        m.append("# ").append(inline(r.cluster())).append(": ").append(r.severity().name())
                .append(r.complete() ? "" : " (incomplete)").append("\n\n");
        m.append("| run | launcher | started | finished | nodes | pair rounds | pair tests |\n|---|---|---|---|---|---|---|\n");
        m.append("| ").append(cell(r.runId())).append(" | ").append(cell(r.launcher())).append(" | ").append(Quantities.time(r.startedAt()))
                .append(" | ").append(r.finishedAt().map(f -> Quantities.time(f) + " (" + Quantities.duration(Duration.between(r.startedAt(), f)) + ")")
                        .orElse("not finished")).append(" | ").append(r.nodes().size()).append(" (")
                .append(r.nodes().stream().filter(n -> n.status() == NodeStatus.COMPLETED).count()).append(" completed) | ")
                .append(r.rounds()).append(" | ").append(r.pairs().size()).append(" |\n\n");
        List<PairMatrix> matrices = PairMatrix.of(r);
        m.append("**").append(r.severity().name()).append("**: ").append(inline(VerdictReasons.headline(r))).append("\n\n");
        for (String reason : VerdictReasons.of(r, matrices)) m.append("- ").append(inline(reason)).append('\n');
        m.append("\nFindings: ").append(FindingsText.summary(r.allFindings())).append("\n\n");

        List<MeasurementSummary.Line> measured = MeasurementSummary.of(r);
        if (!measured.isEmpty()) {
            m.append("## Measurements\n\n| benchmark | where | result |\n|---|---|---|\n");
            for (MeasurementSummary.Line l : measured) {
                m.append("| ").append(cell(l.benchmark())).append(" | ").append(cell(l.where())).append(" | ")
                        .append(cell(l.result())).append(" |\n");
            }
            m.append('\n');
        }

        if (!r.culprits().isEmpty()) m.append("## Culprits\n\n");
        for (Culprit c : r.culprits()) {
            m.append("- **").append(c.severity().name()).append(" ").append(inline(c.subject())).append("**: ")
                    .append(inline(c.evidence())).append('\n');
            if (!c.remediation().isBlank()) m.append("\n  ```\n").append(fence(c.remediation(), "  ")).append("  ```\n");
        }
        m.append('\n');

        m.append("## Nodes\n\n");
        long clean = r.nodes().stream().filter(ValidationHtml::clean).count();
        if (clean > 0) {
            m.append(clean == r.nodes().size() ? "All " : "").append(clean).append(clean == 1 ? " node" : " nodes")
                    .append(" completed without a FAIL or WARN finding.\n\n");
        }
        if (clean < r.nodes().size()) m.append("| node | status | worst | findings | detail |\n|---|---|---|---|---|\n");
        for (NodeOutcome n : r.nodes().stream().filter(n -> !ValidationHtml.clean(n)).toList()) {
            Severity worst = n.findings().stream().map(Finding::severity).reduce(Severity.PASS, Severity::max);
            m.append("| ").append(cell(n.node())).append(" | ").append(n.status().name()).append(" | ")
                    .append(n.findings().isEmpty() ? "–" : worst.name()).append(" | ")
                    .append(FindingsText.summary(n.findings())).append(" | ").append(cell(n.detail())).append(" |\n");
        }

        if (!matrices.isEmpty()) m.append("\n## Pairs\n");
        for (PairMatrix pm : matrices) matrix(m, pm);

        if (!r.curves().isEmpty()) m.append("\n## Bandwidth against message size\n");
        for (SizeCurve c : r.curves()) {
            m.append("\n### ").append(inline(c.title())).append(" · ").append(inline(c.subject())).append("\n\n| size | ")
                    .append(cell(c.unit())).append(" |\n|---:|---:|\n");
            for (SizeCurve.Point p : c.points()) {
                m.append("| ").append(Quantities.bytes(p.bytes())).append(" | ").append(Quantities.number(p.value())).append(" |\n");
            }
        }

        m.append("\n## Findings\n");
        findings(m, "Nodes", FindingGroups.nodes(r.nodes()));
        findings(m, "Cluster", r.clusterFindings());
        findings(m, "Pairs", r.pairFindings());
        findings(m, "Benchmarks", r.benchFindings());
        return m.toString();
    }

    private static void matrix(StringBuilder m, PairMatrix pm) {
        m.append("\n### ").append(inline(pm.network())).append(" · ").append(HeatmapSvg.label(pm)).append("\n\n");
        int n = pm.nodes().size();
        if (n > MATRIX_NODES) {
            badPairs(m, pm);
            return;
        }
        m.append("| |");
        for (int col = 0; col < n - 1; col++) m.append(' ').append(cell(pm.nodes().get(col))).append(" |");
        m.append("\n|---|").append("---:|".repeat(Math.max(0, n - 1))).append('\n');
        for (int row = 1; row < n; row++) {
            m.append("| ").append(cell(pm.nodes().get(row))).append(" |");
            for (int col = 0; col < n - 1; col++) {
                m.append(' ').append(col < row ? mark(pm.cell(row, col)) : "").append(" |");
            }
            m.append('\n');
        }
        m.append("\n").append(pm.testedCells()).append(" of ").append(pm.cells().size()).append(" pairs tested")
                .append(pm.median().map(v -> ", median " + Quantities.number(v) + " " + pm.kind().unit()).orElse(""))
                .append("; ** below expect, !! culprit, × no number, – not tested.\n");
    }

    /** Past this many nodes a matrix is too wide to read as Markdown: list the pairs that are not fine instead. */
    static final int MATRIX_NODES = 24;

    private static void badPairs(StringBuilder m, PairMatrix pm) {
        List<PairMatrix.Cell> bad = pm.cells().stream()
                .filter(c -> c.tested() && c.severity() != Severity.PASS && c.severity() != Severity.INFO).toList();
        m.append(pm.testedCells()).append(" of ").append(pm.cells().size()).append(" pairs of ").append(pm.nodes().size())
                .append(" nodes tested; ").append(bad.size()).append(" not fine").append(bad.isEmpty() ? ".\n" : ":\n\n");
        if (bad.isEmpty()) return;
        m.append("| pair | value | verdict | culprit |\n|---|---:|---|---|\n");
        for (PairMatrix.Cell c : bad) {
            m.append("| ").append(cell(c.a() + "<->" + c.b())).append(" | ")
                    .append(c.value().map(Quantities::number).orElse("×")).append(" | ").append(c.severity().name())
                    .append(" | ").append(c.culprit() ? "yes" : "").append(" |\n");
        }
    }

    private static String mark(PairMatrix.Cell c) {
        if (!c.tested()) return "–";
        String v = c.value().map(Quantities::number).orElse("×");
        if (c.culprit()) return "!!" + v + "!!";
        return c.severity() == Severity.WARN || c.severity() == Severity.FAIL ? "**" + v + "**" : v;
    }

    private static void findings(StringBuilder m, String title, List<Finding> findings) {
        if (findings.isEmpty()) return;
        m.append("\n### ").append(inline(title)).append(" (").append(FindingsText.summary(findings)).append(")\n\n");
        m.append("| severity | id | subject | observed | expected | fix |\n|---|---|---|---|---|---|\n");
        for (Finding f : findings.stream().sorted(Comparator.comparing(Finding::severity).reversed()).toList()) {
            m.append("| ").append(f.severity().name()).append(" | ").append(cell(f.id())).append(" | ")
                    .append(cell(f.subject())).append(" | ").append(cell(f.observed())).append(" | ")
                    .append(cell(f.expected())).append(" | ")
                    .append(f.remediation().isEmpty() ? "" : (f.severity() == Severity.PASS ? "use: " : "") + code(f.remediation()))
                    .append(" |\n");
        }
    }

    /** Text inside a table cell: no line breaks, pipes escaped, no raw HTML. */
    static String cell(String s) {
        return inline(s).replace("|", "\\|");
    }

    /** Running text: Markdown's emphasis and HTML characters escaped, lines joined. */
    static String inline(String s) {
        return s.replace("\\", "\\\\").replace("<", "&lt;").replace(">", "&gt;").replace("*", "\\*")
                .replace("_", "\\_").replace("`", "\\`").replace("[", "\\[").replace("\r", "").replace("\n", " ");
    }

    /** A command in a cell: a code span whose fence is longer than any backtick run inside it. */
    static String code(String s) {
        String flat = s.replace("\r", "").replace("\n", " ; ").replace("|", "\\|");
        int longest = 0;
        int run = 0;
        for (char ch : flat.toCharArray()) {
            run = ch == '`' ? run + 1 : 0;
            longest = Math.max(longest, run);
        }
        String fence = "`".repeat(longest + 1);
        return fence + " " + flat + " " + fence;
    }

    private static String fence(String s, String indent) {
        StringBuilder out = new StringBuilder();
        for (String line : s.replace("```", "`\u200b``").split("\n", -1)) out.append(indent).append(line).append('\n');
        return out.toString();
    }
}
