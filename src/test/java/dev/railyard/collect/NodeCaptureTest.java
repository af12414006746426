package dev.railyard.collect;

import dev.railyard.model.Gpu;
import dev.railyard.model.GpuInventory;
import dev.railyard.model.Reading;
import dev.railyard.nativelib.FakeNvmlLibrary;
import dev.railyard.nativelib.FfmNvml;
import dev.railyard.platform.Clock;
import dev.railyard.platform.CommandRunner;
import dev.railyard.platform.HostRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real capture of this machine (its sysfs and procfs, packed by tar) with GPUs from the gcc-built fake NVML, read
 * back with --root: what NVML alone knows must come back as it was read live.
 */
class NodeCaptureTest {

    private static final Clock FIXED = new Clock() {
        @Override
        public Instant now() {
            return Instant.parse("2026-11-22T10:00:00Z");
        }

        @Override
        public long nanoTime() {
            return 0;
        }
    };

    private static Path unpack(Path archive, Path into) throws IOException {
        Files.createDirectories(into);
        CommandRunner.Result r = CommandRunner.system().run(List.of("tar", "-xzf", archive.toString(), "-C", into.toString()),
                Duration.ofMinutes(1), into, Map.of());
        assertThat(r.ok()).as(r.stderr()).isTrue();
        return into;
    }

    @Test
    void nvmlReadingsSurviveTheCaptureAndTheArchiveHasOneTopDirectory(@TempDir Path dir) throws Throwable {
        try (FakeNvmlLibrary fake = FakeNvmlLibrary.build(Files.createDirectories(dir.resolve("lib")))) {
            GpuCollector nvml = GpuCollector.withNvml(() -> FfmNvml.open(fake.path()));
            GpuInventory live = nvml.collect(HostRoot.live(), List.of());
            Path archive = dir.resolve("gpuserver1.tgz");
            NodeCapture.Result r = new NodeCapture(CommandRunner.system(), FIXED, root -> nvml)
                    .capture(archive, NodeCapture.topDirectoryFor(archive), false);
            assertThat(r.topDirectory()).isEqualTo("gpuserver1");
            assertThat(r.toolsSaved()).contains("NVML");

            Path unpacked = unpack(archive, dir.resolve("x"));
            try (var top = Files.list(unpacked)) {
                assertThat(top.map(p -> p.getFileName().toString())).containsExactly("gpuserver1");
            }
            HostRoot captured = HostRoot.at(unpacked.resolve("gpuserver1"));
            GpuInventory back = GpuCollector.forRoot(captured).collect(captured, List.of());
            assertThat(back.nvml()).isEqualTo(live.nvml());
            assertThat(back.gpus()).isEqualTo(live.gpus());
            Gpu h100 = back.gpus().getFirst();
            assertThat(h100.memory().optional().orElseThrow().usedBytes()).isEqualTo(557056000L);
            assertThat(h100.nvlinks().optional().orElseThrow()).hasSize(18).anyMatch(l -> !l.active());
            assertThat(h100.slowdownTemperatureC()).isEqualTo(Reading.of(87));
            assertThat(h100.clockEvents().optional().orElseThrow()).contains(Gpu.ClockEvent.SW_POWER_CAP);
            assertThat(back.gpus().get(1).persistenceMode()).as("a failed reading comes back failed")
                    .isInstanceOf(Reading.Failed.class);
        }
    }

    @Test
    void aCaptureWithoutNvmlHasNoNvmlFileAndTheTopDirectoryFollowsTheName() {
        assertThat(NodeCapture.topDirectoryFor(Path.of("out/n1.tar.gz"))).isEqualTo("n1");
        assertThat(NodeCapture.topDirectoryFor(Path.of("-"))).isEqualTo("railyard-capture");
        assertThat(NodeCapture.topDirectoryFor(Path.of(".tgz"))).isEqualTo("railyard-capture");
    }

    @Test
    void anNvmlFileFromAnotherSchemaIsFailedNotGuessed(@TempDir Path dir) throws IOException {
        Files.createDirectories(dir.resolve("railyard"));
        Files.writeString(dir.resolve(NvmlCaptureFile.FILE), "{\"schemaVersion\": 99, \"gpus\": []}");
        HostRoot root = HostRoot.at(dir);
        GpuInventory inv = GpuCollector.forRoot(root).collect(root, List.of());
        assertThat(inv.nvml()).isEqualTo(Reading.failed(NvmlCaptureFile.FILE, "schemaVersion 99, this Railyard reads 1"));
    }
}
