package dev.railyard.cli;

import dev.railyard.model.Culprit;
import dev.railyard.model.Finding;
import dev.railyard.model.NodeOutcome;
import dev.railyard.model.NodeStatus;
import dev.railyard.model.Severity;
import dev.railyard.model.ValidationReport;
import dev.railyard.report.FindingGroups;
import dev.railyard.report.FindingsText;
import dev.railyard.report.MeasurementSummary;
import dev.railyard.report.TextStyle;

import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * validate's summary for people: nodes and how far each got, what was measured (one line per benchmark with its
 * number), the culprits with evidence and fix, every finding that is not a PASS (PASSes are counted; the report files
 * hold them all; the same finding on many nodes is one line), and the verdict. UNKNOWN is spelled out: it
 * is not a pass, and its exit code (ExitCodes.of) says whether a node or the run itself was left unproven.
 */
final class ValidateText {

    private ValidateText() {
    }

    static String render(ValidationReport r) {
        StringBuilder out = new StringBuilder();
        out.append("Validation of ").append(r.cluster()).append(" (run ").append(r.runId()).append(", ")
                .append(r.launcher()).append(" launcher").append(r.complete() ? "" : ", INTERRUPTED").append(")\n\n");
        nodes(out, r);
        List<MeasurementSummary.Line> measured = MeasurementSummary.of(r);
        if (!measured.isEmpty()) {
            out.append("\nMeasurements\n");
            out.append(MeasurementSummary.table(measured, TextStyle.PLAIN.width()));
        }
        if (!r.pairs().isEmpty()) {
            long retests = r.pairs().stream().filter(p -> p.attempt() > 1).count();
            out.append("\nPairs: ").append(r.pairs().size()).append(" tests in ").append(r.rounds()).append(" rounds")
                    .append(retests > 0 ? ", " + retests + " retests" : "").append('\n');
        }
        if (!r.culprits().isEmpty()) {
            out.append("\nCulprits\n");
            for (Culprit c : r.culprits()) {
                out.append("  ").append(c.severity()).append("  ").append(c.subject()).append('\n')
                        .append("      evidence: ").append(c.evidence()).append('\n')
                        .append("      fix: ").append(c.remediation()).append('\n');
            }
        }
        List<Finding> all = FindingGroups.all(r);
        boolean onlyPass = all.stream().allMatch(f -> f.severity() == Severity.PASS);
        out.append('\n').append(onlyPass ? "No findings but PASS (" + r.allFindings().size() + ").\n"
                : FindingsText.renderAllButPass(r.cluster(), all));
        out.append('\n').append(verdict(r)).append('\n');
        return out.toString();
    }

    /**
     * Every node and how far it got; above {@link #LISTED} nodes, the ones that completed without a FAIL or WARN are
     * one line, so the nodes that need a look are not lost among hundreds that do not.
     */
    private static void nodes(StringBuilder out, ValidationReport r) {
        out.append("Nodes\n");
        boolean fold = r.nodes().size() > LISTED;
        List<NodeOutcome> shown = r.nodes().stream().filter(n -> !fold || !clean(n)).toList();
        int w = Math.max(4, shown.stream().mapToInt(n -> n.node().length()).max().orElse(4));
        for (NodeOutcome n : shown) {
            long fails = n.findings().stream().filter(f -> f.severity() == Severity.FAIL).count();
            out.append(String.format(Locale.ROOT, "  %-" + w + "s  %-11s  %s%n", n.node(), n.status(),
                    n.status() == NodeStatus.COMPLETED ? n.findings().size() + " findings, " + fails + " FAIL" : n.detail()));
        }
        int folded = r.nodes().size() - shown.size();
        if (folded > 0) {
            out.append("  ").append(shown.isEmpty() ? "all " : "").append(folded).append(shown.isEmpty() ? "" : " other")
                    .append(" nodes COMPLETED without a FAIL or WARN finding\n");
        }
    }

    /** Nodes listed one per line; a larger run folds its clean nodes into one line. */
    static final int LISTED = 16;

    static boolean clean(NodeOutcome n) {
        return n.status() == NodeStatus.COMPLETED && n.findings().stream().noneMatch(f -> f.severity().compareTo(Severity.WARN) >= 0);
    }

    static String verdict(ValidationReport r) {
        Severity s = r.severity();
        int exit = ExitCodes.of(r);
        String took = r.finishedAt().map(f -> " in " + seconds(Duration.between(r.startedAt(), f))).orElse("");
        List<String> notDone = r.nodes().stream().filter(n -> n.status() != NodeStatus.COMPLETED)
                .map(n -> n.node() + " " + n.status().name().toLowerCase(Locale.ROOT).replace('_', ' ') + when(n)).toList();
        // Whatever the worst finding, a run that left nodes or steps unproven says so first: it is not a pass.
        String unproven = (r.complete() ? "" : "the run was interrupted; ")
                + (notDone.isEmpty() ? "" : "not proven: " + String.join(", ", notDone) + "; ");
        String notAPass = exit == 0 ? "" : ", NOT a pass";
        // the codes' order (docs/exit-codes.md): a node not proven (3) outranks a FAIL (1), so both are said
        String outranks = exit == ExitCodes.PREREQUISITE ? ", a node not proven outranks the FAIL's 1" : "";
        return switch (s) {
            case FAIL -> "VERDICT: FAIL" + took + " (exit " + exit + outranks + "): " + unproven
                    + "fix the FAIL findings above, worst first.";
            case UNKNOWN -> "VERDICT: UNKNOWN" + took + " (exit " + exit + ", NOT a pass): " + unproven
                    + "some things could not be judged; read the UNKNOWN findings above for why.";
            case WARN -> "VERDICT: WARN" + took + " (exit " + exit + notAPass + "): " + unproven
                    + "no FAIL, but read the warnings." + skipped(r);
            case PASS, INFO -> unproven.isEmpty() ? "VERDICT: PASS" + took + " (exit 0)." + skipped(r)
                    : "VERDICT: UNKNOWN" + took + " (exit " + exit + ", NOT a pass): " + unproven.substring(0, unproven.length() - 2) + ".";
        };
    }

    /** When a lost node went ("h5 lost at 11:02:03Z"), from its detail; nothing for the other statuses. */
    private static String when(NodeOutcome n) {
        if (n.status() != NodeStatus.LOST) return "";
        java.util.regex.Matcher m = LOST_AT.matcher(n.detail());
        return m.find() ? " at " + m.group(1) : "";
    }

    private static final java.util.regex.Pattern LOST_AT = java.util.regex.Pattern.compile("lost at (\\d\\d:\\d\\d:\\d\\dZ)");

    /** Benchmarks that could not run here (no GPU) are not proven, and the verdict says so. */
    private static String skipped(ValidationReport r) {
        long n = r.allFindings().stream().filter(f -> f.severity() == Severity.INFO && f.observed().contains("skipped")).count();
        return n == 0 ? "" : " " + n + " benchmark" + (n == 1 ? " was" : "s were") + " skipped (see INFO): not proven by this run.";
    }

    private static String seconds(Duration d) {
        return String.format(Locale.ROOT, "%.1f s", d.toMillis() / 1000.0);
    }
}
