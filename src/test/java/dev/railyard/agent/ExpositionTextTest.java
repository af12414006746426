package dev.railyard.agent;

import dev.railyard.collect.SysfsFixtures;
import dev.railyard.nativelib.FakeNvmlLibrary;
import io.prometheus.metrics.expositionformats.OpenMetricsTextFormatWriter;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The agent's own exposition writer against client_java's writers (the library it replaced) on the same families: the
 * same bytes, except that dcgm-exporter's counters are typed counter under their exact names (client_java can only
 * write a counter with "_total" appended, so the oracle is given them as gauges).
 */
class ExpositionTextTest {

    @Test
    void writesWhatClientJavaWritesOnARealPortTree(@TempDir Path dir) throws Exception {
        SysfsFixtures.unpackTtar("node_exporter-class-infiniband.ttar.txt", dir);
        MetricFamilies families = AgentMetrics.families(AgentMetricsTest.sampleOnce(dir));
        assertThat(families.sampleNames()).contains("node_infiniband_link_downed_total", "railyard_samples_total");
        ExpositionText ours = new ExpositionText();
        assertThat(text(ours.render(families, false))).isEqualTo(clientJava(families, false));
        assertThat(text(ours.render(families, true))).isEqualTo(clientJava(families, true));
    }

    @Test
    void writesWhatClientJavaWritesForEightGpusAndTheH100PortTree(@TempDir Path dir, @TempDir Path lib) throws Throwable {
        try (FakeNvmlLibrary nvml = FakeNvmlLibrary.build(lib)) {
            AgentTree tree = new AgentTree(dir);
            AgentState s = tree.agent(Optional.empty(), Optional.of(nvml.path()), Duration.ofMinutes(5), Optional.empty()).tick();
            tree.kernelLog.close();
            MetricFamilies families = AgentMetrics.families(s);
            assertThat(families.sampleNames()).contains("DCGM_FI_DEV_PCIE_REPLAY_COUNTER", "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION",
                    "DCGM_FI_DEV_GPU_TEMP", "node_infiniband_port_data_received_bytes_total");
            ExpositionText ours = new ExpositionText();
            String body = text(ours.render(families, false));
            assertThat(body).contains("# TYPE DCGM_FI_DEV_PCIE_REPLAY_COUNTER counter\n");
            assertThat(body).isEqualTo(clientJava(families, false));
            assertThat(text(ours.render(families, true))).isEqualTo(clientJava(families, true));
        }
    }

    @Test
    void escapesAndOrdersAsClientJavaDoes() throws Exception {
        MetricFamilies m = new MetricFamilies();
        m.gauge("node_network_info", "Non-numeric data, \"quoted\" with a \\ and a\nnewline.", 1,
                "ifalias", "uplink \"A\" \\ to\nspine ä", "device", "eth0", "address", "");
        m.counter("railyard_samples", "Samplings.", 12);
        m.gauge("a_first", "Comes first.", Double.POSITIVE_INFINITY);
        m.gauge("a_first", "Comes first.", 0.1 + 0.2, "x", "1");
        ExpositionText ours = new ExpositionText();
        assertThat(text(ours.render(m, false))).isEqualTo(clientJava(m, false));
        assertThat(text(ours.render(m, true))).isEqualTo(clientJava(m, true));
    }

    @Test
    void dcgmCountersAreCountersUnderTheirExactNames() {
        MetricFamilies m = new MetricFamilies();
        m.dcgmCounter("DCGM_FI_DEV_PCIE_REPLAY_COUNTER", "Total number of PCIe retries.", 7, "gpu", "0");
        m.counter("node_infiniband_symbol_error", "Number of minor link errors.", 3, "device", "mlx5_0", "port", "1");
        assertThat(m.sampleNames()).containsExactly("DCGM_FI_DEV_PCIE_REPLAY_COUNTER", "node_infiniband_symbol_error_total");
        assertThat(text(new ExpositionText().render(m, false))).isEqualTo("""
                # HELP DCGM_FI_DEV_PCIE_REPLAY_COUNTER Total number of PCIe retries.
                # TYPE DCGM_FI_DEV_PCIE_REPLAY_COUNTER counter
                DCGM_FI_DEV_PCIE_REPLAY_COUNTER{gpu="0"} 7.0
                # HELP node_infiniband_symbol_error_total Number of minor link errors.
                # TYPE node_infiniband_symbol_error_total counter
                node_infiniband_symbol_error_total{device="mlx5_0",port="1"} 3.0
                """);
        // OpenMetrics would rename a counter's samples to _total: there they keep their names, typed unknown
        assertThat(text(new ExpositionText().render(m, true))).startsWith("""
                # TYPE DCGM_FI_DEV_PCIE_REPLAY_COUNTER unknown
                # HELP DCGM_FI_DEV_PCIE_REPLAY_COUNTER Total number of PCIe retries.
                DCGM_FI_DEV_PCIE_REPLAY_COUNTER{gpu="0"} 7.0
                """).endsWith("# EOF\n");
    }

    @Test
    void aBodyLargerThanTheFirstBufferIsWrittenWhole() {
        MetricFamilies m = new MetricFamilies();
        for (int i = 0; i < 5000; i++) m.gauge("railyard_test_value", "A value.", i, "i", String.valueOf(i));
        String body = text(new ExpositionText().render(m, false));
        assertThat(body.length()).isGreaterThan(64 * 1024);
        // points in label order, as strings: "999" after "4999"
        assertThat(body.lines()).hasSize(5002).contains("railyard_test_value{i=\"4999\"} 4999.0")
                .endsWith("railyard_test_value{i=\"999\"} 999.0");
    }

    private static String text(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }

    /** The same families through client_java, dcgm-exporter's counters given as gauges. */
    private static String clientJava(MetricFamilies families, boolean openMetrics) throws Exception {
        List<MetricSnapshot> snapshots = new ArrayList<>();
        for (MetricFamilies.Family f : families.families()) {
            if (f.kind() == MetricFamilies.Kind.COUNTER) {
                CounterSnapshot.Builder b = CounterSnapshot.builder().name(f.name()).help(f.help());
                for (MetricFamilies.Point p : f.points()) {
                    b.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder().labels(Labels.of(p.labels())).value(p.value()).build());
                }
                snapshots.add(b.build());
            } else {
                GaugeSnapshot.Builder b = GaugeSnapshot.builder().name(f.name()).help(f.help());
                for (MetricFamilies.Point p : f.points()) {
                    b.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(Labels.of(p.labels())).value(p.value()).build());
                }
                snapshots.add(b.build());
            }
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        if (openMetrics) OpenMetricsTextFormatWriter.create().write(out, new MetricSnapshots(snapshots));
        else PrometheusTextFormatWriter.create().write(out, new MetricSnapshots(snapshots));
        String body = out.toString(StandardCharsets.UTF_8);
        // the one intended difference: dcgm-exporter's counters typed counter (text) or unknown (OpenMetrics)
        for (MetricFamilies.Family f : families.families()) {
            if (f.kind() == MetricFamilies.Kind.DCGM_COUNTER) {
                body = body.replace("# TYPE " + f.name() + " gauge\n", "# TYPE " + f.name() + (openMetrics ? " unknown\n" : " counter\n"));
            }
        }
        return body;
    }
}
