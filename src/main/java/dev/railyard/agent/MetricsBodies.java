package dev.railyard.agent;

import io.prometheus.metrics.expositionformats.ExpositionFormatWriter;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The /metrics bodies of one {@link AgentState}, rendered at most once per format: a scrape between two samples
 * sends bytes already made instead of rebuilding the snapshots (at 50 scrapes a second that was most of the agent's
 * CPU). Safe to share between request threads; a race renders the same bytes twice, never different ones.
 */
final class MetricsBodies {

    private final AgentState state;
    private volatile byte[] text;
    private volatile byte[] openMetrics;

    MetricsBodies(AgentState state) {
        this.state = state;
    }

    AgentState state() {
        return state;
    }

    byte[] text(ExpositionFormatWriter writer) {
        byte[] b = text;
        if (b == null) text = b = render(writer);
        return b;
    }

    byte[] openMetrics(ExpositionFormatWriter writer) {
        byte[] b = openMetrics;
        if (b == null) openMetrics = b = render(writer);
        return b;
    }

    private byte[] render(ExpositionFormatWriter writer) {
        ByteArrayOutputStream body = new ByteArrayOutputStream(131072);
        try {
            writer.write(body, AgentMetrics.snapshots(state));
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a ByteArrayOutputStream does not throw
        }
        return body.toByteArray();
    }
}
