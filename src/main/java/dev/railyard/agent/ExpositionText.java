package dev.railyard.agent;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Writes {@link MetricFamilies} as the Prometheus text format (0.0.4) or OpenMetrics (1.0.0), straight into one
 * byte buffer kept between renderings: the agent renders one body per sample and format, and a scrape sends those
 * bytes (the snapshot objects and writers of client_java allocated about three times the body per rendering).
 * Values are written as Double.toString writes them, as client_java did, so bodies and tests compare line for line.
 *
 * <p>dcgm-exporter's counters ({@link MetricFamilies.Kind#DCGM_COUNTER}) are typed counter in the text format under
 * their exact names, as dcgm-exporter writes them. OpenMetrics requires a counter's samples to end in "_total", which
 * would rename them, so there they are typed unknown and keep their names.
 */
final class ExpositionText {

    static final String TEXT_TYPE = "text/plain; version=0.0.4; charset=utf-8";
    static final String OPENMETRICS_TYPE = "application/openmetrics-text; version=1.0.0; charset=utf-8";

    private byte[] buf = new byte[64 * 1024];
    private int size;

    /** Whether the scraper's Accept header asks for OpenMetrics (Prometheus sends it first when it may). */
    static boolean acceptsOpenMetrics(String accept) {
        return accept != null && accept.contains("application/openmetrics-text");
    }

    /** One body; the buffer is reused, so renderings of one writer are serialised. */
    synchronized byte[] render(MetricFamilies families, boolean openMetrics) {
        size = 0;
        for (MetricFamilies.Family f : families.families()) {
            if (openMetrics) openMetricsFamily(f);
            else textFamily(f);
        }
        if (openMetrics) ascii("# EOF\n");
        return Arrays.copyOf(buf, size);
    }

    private void textFamily(MetricFamilies.Family f) {
        String sample = f.kind() == MetricFamilies.Kind.COUNTER ? f.name() + "_total" : f.name();
        ascii("# HELP ");
        ascii(sample);
        put(' ');
        escaped(f.help(), false); // HELP: backslash and newline; OpenMetrics also quotes
        ascii("\n# TYPE ");
        ascii(sample);
        ascii(f.kind() == MetricFamilies.Kind.GAUGE ? " gauge\n" : " counter\n");
        points(f, sample);
    }

    private void openMetricsFamily(MetricFamilies.Family f) {
        ascii("# TYPE ");
        ascii(f.name());
        ascii(switch (f.kind()) {
            case GAUGE -> " gauge\n";
            case COUNTER -> " counter\n";
            case DCGM_COUNTER -> " unknown\n";
        });
        ascii("# HELP ");
        ascii(f.name());
        put(' ');
        escaped(f.help(), true);
        put('\n');
        points(f, f.kind() == MetricFamilies.Kind.COUNTER ? f.name() + "_total" : f.name());
    }

    private void points(MetricFamilies.Family f, String sample) {
        for (MetricFamilies.Point p : f.points()) {
            ascii(sample);
            String[] l = p.labels();
            if (l.length > 0) {
                put('{');
                for (int i = 0; i < l.length; i += 2) {
                    if (i > 0) put(',');
                    ascii(l[i]);
                    ascii("=\"");
                    escaped(l[i + 1], true);
                    put('"');
                }
                put('}');
            }
            put(' ');
            double v = p.value();
            ascii(v == Double.POSITIVE_INFINITY ? "+Inf" : v == Double.NEGATIVE_INFINITY ? "-Inf" : Double.toString(v));
            put('\n');
        }
    }

    private void escaped(String s, boolean quotes) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '\\' -> ascii("\\\\");
                case '\n' -> ascii("\\n");
                case '"' -> {
                    if (quotes) ascii("\\\"");
                    else put('"');
                }
                default -> {
                    if (c < 0x80) {
                        put(c);
                    } else {
                        // rare (an interface alias, a model name): the rest of the string through the encoder
                        utf8(s.substring(i), quotes);
                        return;
                    }
                }
            }
        }
    }

    private void utf8(String rest, boolean quotes) {
        String escaped = rest.replace("\\", "\\\\").replace("\n", "\\n");
        if (quotes) escaped = escaped.replace("\"", "\\\"");
        byte[] b = escaped.getBytes(StandardCharsets.UTF_8);
        room(b.length);
        System.arraycopy(b, 0, buf, size, b.length);
        size += b.length;
    }

    /** Names, keywords and numbers: ASCII by construction. */
    private void ascii(String s) {
        int n = s.length();
        room(n);
        for (int i = 0; i < n; i++) buf[size + i] = (byte) s.charAt(i);
        size += n;
    }

    private void put(char c) {
        room(1);
        buf[size++] = (byte) c;
    }

    private void room(int n) {
        if (size + n > buf.length) buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + n));
    }
}
