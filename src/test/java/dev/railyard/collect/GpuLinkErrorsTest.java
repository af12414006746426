package dev.railyard.collect;

import dev.railyard.model.Gpu;
import dev.railyard.model.GpuInventory;
import dev.railyard.model.Reading;
import dev.railyard.nativelib.FakeNvmlLibrary;
import dev.railyard.nativelib.FfmNvml;
import dev.railyard.platform.HostRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The NVLink error counters cost four NVML calls per link (on 2 x H200, 208 of a 215 ms read): a one-shot inventory
 * leaves them out, saying why; the agent's kept-open collector reads them on its first and every 60th collection and
 * carries the last ones in between, so their series never gap.
 */
class GpuLinkErrorsTest {

    @Test
    void aOneShotInventoryDoesNotReadThemAndSaysWhy(@TempDir Path lib, @TempDir Path root) throws Exception {
        try (FakeNvmlLibrary fake = FakeNvmlLibrary.build(lib)) {
            GpuInventory inv = GpuCollector.withNvml(() -> FfmNvml.open(fake.path())).collect(HostRoot.at(root), List.of());
            assertThat(inv.gpus()).isNotEmpty().allSatisfy(g -> assertThat(g.nvlinkErrors())
                    .isInstanceOfSatisfying(Reading.Absent.class, a -> assertThat(a.reason()).contains("once a minute")));
        }
    }

    @Test
    void theAgentReadsThemOnceAMinuteAndCarriesTheLastInBetween(@TempDir Path lib, @TempDir Path root) throws Exception {
        try (FakeNvmlLibrary fake = FakeNvmlLibrary.build(lib)) {
            GpuCollector agent = GpuCollector.keepingOpen(() -> FfmNvml.open(fake.path()));
            Gpu first = agent.collect(HostRoot.at(root), List.of()).gpus().getFirst();
            assertThat(first.nvlinkErrors().isPresent()).as("read on the first collection").isTrue();
            for (int i = 1; i < GpuCollector.LINK_ERRORS_EVERY; i++) {
                Gpu between = agent.collect(HostRoot.at(root), List.of()).gpus().getFirst();
                assertThat(between.nvlinkErrors()).as("collection " + i).isEqualTo(first.nvlinkErrors());
            }
            assertThat(agent.collect(HostRoot.at(root), List.of()).gpus().getFirst().nvlinkErrors())
                    .isEqualTo(first.nvlinkErrors());
        }
    }
}
