package dev.railyard.agent;

/**
 * The /metrics bodies of one {@link AgentState}, rendered at most once per format: a scrape between two samples
 * sends bytes already made instead of rebuilding them (at 50 scrapes a second that was most of the agent's CPU).
 * Safe to share between request threads; a race renders the same bytes twice, never different ones.
 */
final class MetricsBodies {

    private final AgentState state;
    private volatile MetricFamilies families;
    private volatile byte[] text;
    private volatile byte[] openMetrics;

    MetricsBodies(AgentState state) {
        this.state = state;
    }

    AgentState state() {
        return state;
    }

    byte[] text(ExpositionText writer) {
        byte[] b = text;
        if (b == null) text = b = writer.render(families(), false);
        return b;
    }

    byte[] openMetrics(ExpositionText writer) {
        byte[] b = openMetrics;
        if (b == null) openMetrics = b = writer.render(families(), true);
        return b;
    }

    private MetricFamilies families() {
        MetricFamilies f = families;
        if (f == null) families = f = AgentMetrics.families(state);
        return f;
    }
}
