package dev.railyard.agent;

import dev.railyard.check.CheckRunner;
import dev.railyard.collect.GpuCollector;
import dev.railyard.collect.InventoryCollector;
import dev.railyard.collect.SysfsFixtures;
import dev.railyard.platform.HostRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
        return new String(new ExpositionText().render(AgentMetrics.families(state), false), StandardCharsets.UTF_8);
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

    /**
     * node_network_info and node_network_speed_bytes exactly as node_exporter writes them for its own class/net
     * fixture (bond0's speed -1 gives no speed series, eth0's 1000 Mb/s gives 1.25e+08 bytes/s).
     */
    @Test
    void networkInfoAndSpeedAreNodeExportersForItsFixture(@TempDir Path dir) throws Exception {
        SysfsFixtures.unpackTtar("node_exporter-class-net.ttar.txt", dir);
        List<String> ours = metricsText(sampleOnce(dir)).lines().map(AgentMetricsTest::normaliseNumber).toList();
        List<String> expected = SysfsFixtures.resourceLines("node_exporter-e2e-output-network.txt").stream()
                .filter(l -> l.startsWith("node_network_info{") || l.startsWith("node_network_speed_bytes"))
                .map(AgentMetricsTest::normaliseNumber).toList();
        assertThat(expected).hasSize(3);
        assertThat(ours).containsAll(expected);
        assertThat(ours).noneMatch(l -> l.startsWith("node_network_speed_bytes{device=\"bond0\"}"));
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

    /**
     * The H200 capture (nvidia-smi -q -x of 4 x H200, driver 580) under the agent: every default dcgm-exporter
     * counter the document holds, with dcgm-exporter's labels, and the values nvidia-smi printed for GPU 0 (memory
     * as nvidia-smi counts it: 0 MiB used, 616 MiB reserved, 143156 MiB free).
     */
    @Test
    void theH200CaptureServesDcgmExportersDefaultCountersWithItsLabels() throws Exception {
        String ours = metricsText(sampleOnce(Path.of("src/test/resources/trees/h200x4-capture")));
        String gpu0 = "{DCGM_FI_DRIVER_VERSION=\"580.159.04\",Hostname=\"n1\",UUID=\"GPU-";
        List<String> gpu0Lines = ours.lines().filter(l -> l.contains("pci_bus_id=\"00000000:00:06.0\"")).toList();
        for (String family : List.of("DCGM_FI_DEV_SM_CLOCK", "DCGM_FI_DEV_MEM_CLOCK", "DCGM_FI_DEV_MEMORY_TEMP",
                "DCGM_FI_DEV_GPU_TEMP", "DCGM_FI_DEV_POWER_USAGE", "DCGM_FI_DEV_PCIE_REPLAY_COUNTER",
                "DCGM_FI_DEV_GPU_UTIL", "DCGM_FI_DEV_MEM_COPY_UTIL", "DCGM_FI_DEV_ENC_UTIL", "DCGM_FI_DEV_DEC_UTIL",
                "DCGM_FI_DEV_XID_ERRORS", "DCGM_FI_DEV_FB_FREE", "DCGM_FI_DEV_FB_USED", "DCGM_FI_DEV_FB_RESERVED",
                "DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS", "DCGM_FI_DEV_CORRECTABLE_REMAPPED_ROWS",
                "DCGM_FI_DEV_ROW_REMAP_FAILURE", "DCGM_FI_PROF_PCIE_TX_BYTES", "DCGM_FI_PROF_PCIE_RX_BYTES")) {
            assertThat(gpu0Lines).as(family).anyMatch(l -> l.startsWith(family + gpu0)
                    && l.contains("device=\"nvidia0\",gpu=\"0\",modelName=\"NVIDIA H200\""));
        }
        assertThat(gpu0Lines).anyMatch(l -> l.startsWith("DCGM_FI_DEV_FB_USED{") && l.endsWith("} 0.0"))
                .anyMatch(l -> l.startsWith("DCGM_FI_DEV_FB_RESERVED{") && l.endsWith("} 616.0"))
                .anyMatch(l -> l.startsWith("DCGM_FI_DEV_FB_FREE{") && l.endsWith("} 143156.0"))
                .anyMatch(l -> l.startsWith("DCGM_FI_DEV_MEM_CLOCK{") && l.endsWith("} 3201.0"))
                .anyMatch(l -> l.startsWith("DCGM_FI_DEV_MEMORY_TEMP{") && l.endsWith("} 39.0"))
                // tx_util 1012 KB/s
                .anyMatch(l -> l.startsWith("DCGM_FI_PROF_PCIE_TX_BYTES{") && l.endsWith("} 1036288.0"));
    }

    @TempDir
    Path empty;

    private Path dirWithNoGpu() {
        return empty;
    }
}
