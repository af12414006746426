package dev.railyard.report;

import dev.railyard.model.NodeOutcome;
import dev.railyard.model.NodeStatus;
import dev.railyard.model.Severity;
import dev.railyard.model.ValidationReport;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Why the run's verdict is what it is, in the words the report opens with: what to do about the worst finding, and
 * each thing that keeps the run from proving the cluster (an interrupted run, nodes not reached, benchmarks skipped,
 * pairs never tested). A PASS with one of these is not a clean pass, and the page says so before anything else.
 */
public final class VerdictReasons {

    /** Names listed before "and N more": enough to act on, short enough for a line. */
    private static final int NAMED = 5;

    private VerdictReasons() {
    }

    /** The one-line reading of the verdict: "FAIL: fix the FAIL findings, worst first". */
    public static String headline(ValidationReport r) {
        long fails = r.allFindings().stream().filter(f -> f.severity() == Severity.FAIL).count();
        long warns = r.allFindings().stream().filter(f -> f.severity() == Severity.WARN).count();
        return switch (r.severity()) {
            case FAIL -> fails + " FAIL finding" + (fails == 1 ? "" : "s") + ": fix them, worst first (the culprits lead)";
            case WARN -> "no FAIL, " + warns + " warning" + (warns == 1 ? "" : "s") + " to read";
            case UNKNOWN -> "not a pass: some things could not be judged";
            case PASS, INFO -> "every check and benchmark that ran is within expect";
        };
    }

    public static List<String> of(ValidationReport r, List<PairMatrix> matrices) {
        List<String> out = new ArrayList<>();
        if (!r.complete()) out.add("the run was interrupted: this is what it measured before it stopped");
        List<String> notDone = r.nodes().stream().filter(n -> n.status() != NodeStatus.COMPLETED)
                .map(n -> n.node() + " (" + status(n) + ")").toList();
        if (!notDone.isEmpty()) {
            out.add(notDone.size() + " node" + (notDone.size() == 1 ? "" : "s") + " not proven: " + named(notDone));
        }
        List<String> skipped = MeasurementSummary.of(r).stream().filter(l -> !l.measured() && !l.benchmark().startsWith("pairs "))
                .map(l -> l.benchmark() + " on " + l.where()).toList();
        if (!skipped.isEmpty()) {
            out.add("not measured, so not proven: " + named(skipped));
        }
        for (PairMatrix m : matrices) {
            long untested = m.cells().size() - m.testedCells();
            if (untested > 0) {
                out.add(m.network() + " " + HeatmapSvg.label(m) + ": " + untested + " of " + m.cells().size()
                        + " pairs not tested");
            }
        }
        return out;
    }

    private static String status(NodeOutcome n) {
        return n.status().name().toLowerCase(Locale.ROOT).replace('_', ' ');
    }

    private static String named(List<String> items) {
        if (items.size() <= NAMED) return String.join(", ", items);
        return String.join(", ", items.subList(0, NAMED)) + " and " + (items.size() - NAMED) + " more";
    }
}
