package dev.railyard.agent;

import dev.railyard.model.Finding;
import dev.railyard.model.Severity;
import dev.railyard.report.Quantities;

import java.util.List;
import java.util.Map;

/**
 * The agent's page for people: node health, each component, the findings worse than PASS with their fixes, and
 * sparklines of GPU temperatures and port error counts. One self-contained page (inline CSS and SVG, no scripts),
 * refreshed by the browser every 5 s.
 */
public final class StatusPage {

    private StatusPage() {
    }

    /** Right after a sample: nothing is stale. */
    public static String render(AgentState s) {
        return render(s, s.sample().map(NodeSample::at).orElse(s.startedAt()), java.time.Duration.ofDays(1));
    }

    /**
     * At {@code now}: a last sample older than {@code staleAfter} is shown as stale, its health as the last one
     * known rather than a live one.
     */
    public static String render(AgentState s, java.time.Instant now, java.time.Duration staleAfter) {
        java.util.Optional<java.time.Duration> age = s.sample().map(x -> java.time.Duration.between(x.at(), now));
        boolean stale = age.isPresent() && age.get().compareTo(staleAfter) > 0;
        StringBuilder h = new StringBuilder(8192);
        h.append("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta http-equiv=\"refresh\" content=\"5\">")
                .append("<title>railyard agent: ").append(esc(s.node())).append("</title><style>")
                .append("body{font-family:system-ui,sans-serif;margin:1.5em;color:#222}table{border-collapse:collapse;margin:.5em 0}")
                .append("td,th{border:1px solid #ccc;padding:.25em .6em;text-align:left;vertical-align:top}")
                .append(".HEALTHY,.PASS,.INFO{background:#dff3df}.DEGRADED,.WARN,.UNKNOWN{background:#fff3cd}")
                .append(".UNHEALTHY,.FAIL,.STALE{background:#f8d7da}code{font-size:.9em}td code{white-space:pre-wrap}svg{vertical-align:middle}</style></head><body>");
        h.append("<h1>").append(esc(s.node())).append(" <span id=\"health\" class=\"").append(stale ? "STALE" : s.health())
                .append("\">").append(stale ? "STALE (last known: " + s.health() + ")" : s.health()).append("</span></h1>");
        if (stale) {
            h.append("<p id=\"stale\" class=\"STALE\">Sampling stalled: the last sample is ").append(age.get().toSeconds())
                    .append(" s old (stale after ").append(staleAfter.toSeconds()).append(" s). What follows is the last state known, not the node now.</p>");
        }
        h.append("<p>").append(s.sampleCount()).append(" samples since ").append(Quantities.time(s.startedAt()));
        s.sample().ifPresent(x -> h.append(", last at ").append(Quantities.time(x.at())).append(" (").append(x.took().toMillis())
                .append(" ms, ").append(age.orElseThrow().toMillis()).append(" ms ago)"));
        if (s.slurm().enabled()) {
            h.append(". Slurm node ").append(esc(s.slurm().slurmNode())).append(": ")
                    .append(esc(s.slurm().lastState().orElse("not asked yet")))
                    .append(s.slurm().lastAction().map(a -> ", last action " + esc(a)).orElse(""))
                    .append(s.slurm().error().map(e -> ", error: " + esc(e)).orElse(""));
        }
        h.append("</p>");
        for (var st : s.sample().map(NodeSample::stuck).orElse(List.of())) {
            h.append("<p class=\"stuck UNKNOWN\">Not read: ").append(esc(st.why())).append(" (since ").append(st.since()).append(")</p>");
        }
        h.append("<h2>Components</h2><table id=\"components\"><tr><th>component</th><th>state</th><th>reason</th><th>since</th></tr>");
        for (ComponentHealth c : s.components()) {
            h.append("<tr class=\"").append(c.state()).append("\"><td>").append(esc(c.component())).append("</td><td>")
                    .append(c.state()).append("</td><td>").append(esc(c.reason())).append("</td><td>").append(Quantities.time(c.since()))
                    .append("</td></tr>");
        }
        h.append("</table>");
        List<Finding> bad = s.sample().map(NodeSample::findings).orElse(List.of()).stream()
                .filter(f -> f.severity().atLeast(Severity.UNKNOWN)).toList();
        h.append("<h2>Findings</h2>");
        if (bad.isEmpty()) h.append("<p>Nothing worse than PASS.</p>");
        else {
            h.append("<table id=\"findings\"><tr><th>severity</th><th>check</th><th>subject</th><th>observed</th><th>fix</th></tr>");
            for (Finding f : bad) {
                h.append("<tr class=\"").append(f.severity()).append("\"><td>").append(f.severity()).append("</td><td>")
                        .append(esc(f.id())).append("</td><td>").append(esc(f.subject())).append("</td><td>")
                        .append(esc(f.observed())).append("</td><td><code>").append(esc(f.remediation())).append("</code></td></tr>");
            }
            h.append("</table>");
        }
        sparklines(h, "GPU temperature (°C)", s.temperatureHistory());
        sparklines(h, "Port error counters (sum)", s.errorHistory());
        return h.append("</body></html>\n").toString();
    }

    private static void sparklines(StringBuilder h, String title, Map<String, List<TimeSeries.Point>> series) {
        if (series.isEmpty()) return;
        h.append("<h2>").append(esc(title)).append("</h2><table class=\"sparklines\">");
        series.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> {
            List<TimeSeries.Point> pts = e.getValue();
            double last = pts.isEmpty() ? 0 : pts.getLast().value();
            h.append("<tr><td>").append(esc(e.getKey())).append("</td><td>").append(svg(pts)).append("</td><td>")
                    .append(format(last)).append("</td></tr>");
        });
        h.append("</table>");
    }

    /** A 160×24 polyline scaled to the series' own range. */
    static String svg(List<TimeSeries.Point> pts) {
        StringBuilder s = new StringBuilder("<svg class=\"spark\" width=\"160\" height=\"24\" viewBox=\"0 0 160 24\">");
        if (pts.size() >= 2) {
            double min = pts.stream().mapToDouble(TimeSeries.Point::value).min().orElse(0);
            double max = pts.stream().mapToDouble(TimeSeries.Point::value).max().orElse(0);
            double span = max - min == 0 ? 1 : max - min;
            s.append("<polyline fill=\"none\" stroke=\"#36c\" stroke-width=\"1.5\" points=\"");
            for (int i = 0; i < pts.size(); i++) {
                double x = 160.0 * i / (pts.size() - 1);
                double y = 22 - 20 * (pts.get(i).value() - min) / span;
                s.append(String.format(java.util.Locale.ROOT, "%.1f,%.1f ", x, y));
            }
            s.append("\"/>");
        }
        return s.append("</svg>").toString();
    }

    private static String format(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.format(java.util.Locale.ROOT, "%.1f", v);
    }

    static String esc(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (char c : s.toCharArray()) {
            switch (c) {
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '&' -> b.append("&amp;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&#39;");
                // a fix is one command a line: its newlines stay (shown by pre-wrap), other control characters go
                default -> b.append(c < 0x20 && c != '\t' && c != '\n' ? ' ' : c);
            }
        }
        return b.toString();
    }
}
