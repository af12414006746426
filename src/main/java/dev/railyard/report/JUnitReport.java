package dev.railyard.report;

import dev.railyard.model.Finding;
import dev.railyard.model.Severity;

import java.util.List;

/**
 * Findings as JUnit XML for CI dashboards: one testcase per finding (classname = check ID, name = subject).
 * FAIL is a {@code <failure>} (it is what makes the exit code 1); UNKNOWN is {@code <skipped>} because it could not
 * be judged; WARN and INFO pass, with their text in {@code <system-out>} so CI shows them without failing the build.
 */
public final class JUnitReport {

    private JUnitReport() {
    }

    public static String render(String node, List<Finding> findings) {
        long failures = findings.stream().filter(f -> f.severity() == Severity.FAIL).count();
        long skipped = findings.stream().filter(f -> f.severity() == Severity.UNKNOWN).count();
        StringBuilder out = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        out.append("<testsuite name=\"railyard.check.").append(attr(node)).append("\" tests=\"").append(findings.size())
                .append("\" failures=\"").append(failures).append("\" errors=\"0\" skipped=\"").append(skipped).append("\">\n");
        for (Finding f : findings) testcase(out, "  ", f);
        return out.append("</testsuite>\n").toString();
    }

    /** One finding as a {@code <testcase>}, indented by {@code indent}; the validate report's suites share it. */
    static void testcase(StringBuilder out, String indent, Finding f) {
        out.append(indent).append("<testcase classname=\"").append(attr(f.id())).append("\" name=\"").append(attr(f.subject())).append('"');
        String detail = "observed: " + f.observed() + "\nexpected: " + f.expected()
                + (f.remediation().isEmpty() ? "" : "\n" + (f.severity() == Severity.PASS ? "use: " : "fix: ") + f.remediation());
        switch (f.severity()) {
            case FAIL -> out.append(">\n").append(indent).append("  <failure type=\"FAIL\" message=\"").append(attr(f.observed())).append("\">")
                    .append(text(detail)).append("</failure>\n").append(indent).append("</testcase>\n");
            case UNKNOWN -> out.append(">\n").append(indent).append("  <skipped message=\"").append(attr("could not be judged: " + f.observed()))
                    .append("\"/>\n").append(indent).append("</testcase>\n");
            case WARN, INFO, PASS -> out.append(">\n").append(indent).append("  <system-out>").append(text(f.severity() + "\n" + detail))
                    .append("</system-out>\n").append(indent).append("</testcase>\n");
        }
    }

    static String text(String s) {
        return strip(s).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    static String attr(String s) {
        return text(s).replace("\"", "&quot;").replace("\n", "&#10;");
    }

    /** XML 1.0 forbids most control characters; a kernel log line may carry them. */
    private static String strip(String s) {
        return s.codePoints().filter(c -> c == '\n' || c == '\t' || c >= 0x20 && c != 0xFFFE && c != 0xFFFF)
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString();
    }
}
