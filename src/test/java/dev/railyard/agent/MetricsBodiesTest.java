package dev.railyard.agent;

import dev.railyard.collect.SysfsFixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The memoised /metrics bodies: rendered once per state and format, and the same text a fresh rendering gives. */
class MetricsBodiesTest {

    @Test
    void aStateIsRenderedOncePerFormatAndMatchesAFreshRendering(@TempDir Path dir) throws Exception {
        SysfsFixtures.unpackTtar("node_exporter-class-infiniband.ttar.txt", dir);
        AgentState state = AgentMetricsTest.sampleOnce(dir);
        MetricsBodies bodies = new MetricsBodies(state);
        ExpositionText text = new ExpositionText();
        ExpositionText om = new ExpositionText();

        byte[] first = bodies.text(text);
        assertThat(bodies.text(text)).isSameAs(first);
        assertThat(new String(first, StandardCharsets.UTF_8)).isEqualTo(AgentMetricsTest.metricsText(state));
        byte[] omBody = bodies.openMetrics(om);
        assertThat(bodies.openMetrics(om)).isSameAs(omBody);
        assertThat(new String(omBody, StandardCharsets.UTF_8)).endsWith("# EOF\n").contains("railyard_samples_total 1");
    }
}
