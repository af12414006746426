package dev.railyard.agent;

import dev.railyard.model.Finding;
import dev.railyard.model.Gpu;
import dev.railyard.model.GpuInventory;
import dev.railyard.model.NodeInventory;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;
import dev.railyard.nativelib.FakeNvmlLibrary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** The PCIe replay counter judged by its rate over the hour, on the GPUs of the real H100 tree. */
class PcieReplayDetectorTest {

    @TempDir
    Path dir;

    /** The real tree's inventory with the eight GPUs of the fake NVML. */
    NodeInventory eightGpus() throws Exception {
        AgentTree tree = new AgentTree(Files.createDirectories(dir.resolve("root")));
        try (FakeNvmlLibrary nvml = FakeNvmlLibrary.build(Files.createDirectories(dir.resolve("lib")), "FAKE_NVML_EIGHT_GPUS")) {
            NodeInventory real = tree.sampler(Optional.empty(), Optional.of(nvml.path())).sample().inventory();
            assertThat(real.gpu().gpus()).hasSize(8);
            return real;
        }
    }

    @Test
    void replaysHeldSinceBootPassAndReplaysRisingWithinTheHourDegradeThatGpu() throws Exception {
        NodeInventory real = eightGpus();
        PcieReplayDetector detector = new PcieReplayDetector(100);
        Instant t = Instant.parse("2026-11-23T00:00:00Z");

        assertThat(detector.observe(withReplays(real, 5000), t)).allSatisfy(f -> assertThat(f.severity()).isEqualTo(Severity.PASS));
        List<Finding> later = detector.observe(withReplays(real, 5099), t.plus(Duration.ofMinutes(30)));
        assertThat(later).allSatisfy(f -> assertThat(f.severity()).isEqualTo(Severity.PASS));
        List<Finding> rising = detector.observe(withReplays(real, 5100), t.plus(Duration.ofMinutes(40)));
        assertThat(rising).hasSize(8).allSatisfy(f -> {
            assertThat(f.severity()).isEqualTo(Severity.WARN);
            assertThat(f.observed()).startsWith("100 PCIe replays in the last hour");
            assertThat(f.remediation()).contains("nvidia-smi -q -d PCIE");
        });
        // two hours on, the rise is out of the window
        assertThat(detector.observe(withReplays(real, 5100), t.plus(Duration.ofHours(2))))
                .allSatisfy(f -> assertThat(f.severity()).isEqualTo(Severity.PASS));
        assertThat(detector.observe(withReplays(real, 3), t.plus(Duration.ofHours(3))))
                .as("a counter that went down was reset (driver reload)")
                .allSatisfy(f -> assertThat(f.severity()).isEqualTo(Severity.PASS));
    }

    @Test
    void aGpuWithoutTheCounterIsNotJudged() throws Exception {
        NodeInventory none = withReplays(eightGpus(), Reading.absent("not supported by this GPU"));
        assertThat(new PcieReplayDetector(1).observe(none, Instant.EPOCH)).isEmpty();
    }

    static NodeInventory withReplays(NodeInventory i, long replays) {
        return withReplays(i, Reading.of(replays));
    }

    static NodeInventory withReplays(NodeInventory i, Reading<Long> replays) {
        List<Gpu> gpus = i.gpu().gpus().stream().map(g -> new Gpu(g.index(), g.pciAddress(), g.source(), g.name(), g.uuid(),
                g.memory(), g.temperatureC(), g.slowdownTemperatureC(), g.powerWatts(), g.powerLimitWatts(), g.smClockMhz(),
                g.clockEvents(), g.ecc(), g.remappedRows(), g.pcieLink(), g.nvlinks(), g.persistenceMode(),
                replays, g.nvlinkErrors(), g.activity())).toList();
        return new NodeInventory(i.hostname(), i.takenAt(), i.root(), i.host(), i.pciDevices(),
                new GpuInventory(i.gpu().nvml(), gpus), i.rdmaDevices(), i.interfaces(), i.topology(), i.xidEvents());
    }
}
