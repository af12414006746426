package dev.railyard.agent;

import dev.railyard.check.CheckRunner;
import dev.railyard.collect.GpuCollector;
import dev.railyard.collect.InventoryCollector;
import dev.railyard.collect.SysfsFixtures;
import dev.railyard.platform.HostRoot;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** /metrics against node_exporter's own expected output for the same sysfs fixture: same names, labels, values. */
class AgentMetricsTest {

    /** node_exporter families read from counters_ext/legacy files the agent does not export. */
    static final Set<String> NOT_EXPORTED = Set.of("node_infiniband_legacy_");

    static String metricsText(AgentState state) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrometheusTextFormatWriter.create().write(out, AgentMetrics.snapshots(state));
        return out.toString(StandardCharsets.UTF_8);
    }

    static AgentState sampleOnce(Path root) {
        SteppedClock clock = new SteppedClock();
        HostRoot host = HostRoot.at(root);
        KernelLogFollower log = KernelLogFollower.start(host);
        Sampler sampler = new Sampler(host, new InventoryCollector(GpuCollector.forRoot(host), log, clock),
                CheckRunner.nodeChecks(), List.of(new CounterRateDetector(10)), Optional.empty(), "n1", clock);
        return new Agent(sampler, new HealthTracker("n1", Duration.ofMinutes(5)), Optional.empty(), log, clock,
                Duration.ofSeconds(1)).tick();
    }

    @Test
    void everyInfinibandSampleNodeExporterWritesForTheFixtureIsWrittenTheSame(@TempDir Path dir) throws Exception {
        SysfsFixtures.unpackTtar("node_exporter-class-infiniband.ttar.txt", dir);
        String ours = metricsText(sampleOnce(dir));
        List<String> expected = SysfsFixtures.resourceLines("node_exporter-e2e-output-infiniband.txt").stream()
                .filter(l -> l.startsWith("node_infiniband_"))
                .filter(l -> NOT_EXPORTED.stream().noneMatch(l::startsWith))
                .toList();
        assertThat(expected).hasSizeGreaterThan(30);
        List<String> ourLines = ours.lines().map(AgentMetricsTest::normaliseNumber).toList();
        for (String line : expected) {
            assertThat(ourLines).as("node_exporter writes: " + line).contains(normaliseNumber(line));
        }
    }

    /** node_exporter writes 1.2e+07, client_java 1.2E7: compare the numbers, not their spelling. */
    static String normaliseNumber(String line) {
        int space = line.lastIndexOf(' ');
        if (space < 0 || line.startsWith("#")) return line;
        try {
            double v = Double.parseDouble(line.substring(space + 1));
            return line.substring(0, space) + " " + (v == Math.rint(v) && Math.abs(v) < 1e15 ? String.valueOf((long) v) : String.valueOf(v));
        } catch (NumberFormatException e) {
            return line;
        }
    }

    @Test
    void gpuMetricsCarryDcgmExporterNamesAndLabels() throws Exception {
        // covered with the fake NVML in AgentHttpTest; here: no GPU means no DCGM_ family at all, never zeros
        String ours = metricsText(sampleOnce(dirWithNoGpu()));
        assertThat(ours).doesNotContain("DCGM_FI_DEV_GPU_TEMP").contains("railyard_nvml_up 0");
    }

    @TempDir
    Path empty;

    private Path dirWithNoGpu() {
        return empty;
    }
}
