package dev.railyard.cli;

import dev.railyard.diagnose.Diagnosis;
import dev.railyard.diagnose.DiagnosisReport;
import dev.railyard.diagnose.Measurement;
import dev.railyard.model.Finding;

import java.util.Locale;

/** diagnose's text output: the tool, each verdict with its evidence and fix, the numbers read, the worst verdict. */
final class DiagnoseText {

    private static final String INDENT = "        ";

    private DiagnoseText() {
    }

    static String render(DiagnosisReport report) {
        StringBuilder sb = new StringBuilder("Recognised: ").append(report.tool().label()).append('\n');
        if (!report.ignored().isEmpty()) {
            sb.append("Ignored: ").append(String.join(", ", report.ignored())).append('\n');
        }
        for (Diagnosis d : report.diagnoses()) {
            Finding f = d.finding();
            sb.append(String.format(Locale.ROOT, "%-7s %s %s%n", f.severity(), f.id(), f.subject()));
            sb.append(INDENT).append(f.observed()).append('\n');
            if (!f.expected().isEmpty()) sb.append(INDENT).append("expected: ").append(f.expected()).append('\n');
            if (d.lineNumber() > 0) {
                sb.append(INDENT).append("evidence, line ").append(d.lineNumber()).append(": ").append(d.line())
                        .append('\n');
            }
            if (!f.remediation().isEmpty()) {
                // one command a line, each under the first, so the block pastes as it is
                sb.append(INDENT).append("fix: ").append(f.remediation().replace("\n", "\n" + INDENT + "     "))
                        .append('\n');
            }
        }
        if (!report.parsed().numbers().isEmpty()) {
            sb.append("Parsed:\n");
            for (Measurement m : report.parsed().numbers()) {
                sb.append("  ").append(m.name()).append(": ").append(number(m.value())).append(' ').append(m.unit())
                        .append('\n');
            }
        }
        sb.append("Verdict: ").append(report.worst()).append('\n');
        return sb.toString();
    }

    /**
     * Whole numbers as they are; others to two decimals, but a number under 1 to three significant digits, so that
     * 1.10 Mbit/s read in Gb/s prints 0.0011, not 0.
     */
    static String number(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) return String.valueOf((long) v);
        int decimals = Math.abs(v) >= 1 || !Double.isFinite(v) ? 2
                : Math.min(12, 2 - (int) Math.floor(Math.log10(Math.abs(v))));
        return String.format(Locale.ROOT, "%." + Math.max(2, decimals) + "f", v).replaceAll("0+$", "")
                .replaceAll("\\.$", "");
    }
}
