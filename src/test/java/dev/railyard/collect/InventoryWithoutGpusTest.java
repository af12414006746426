package dev.railyard.collect;

import dev.railyard.model.NodeInventory;
import dev.railyard.model.Reading;
import dev.railyard.nativelib.NvmlLoad;
import dev.railyard.platform.Clock;
import dev.railyard.platform.HostRoot;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * While NVML is still loading, the collector hands over the inventory without its GPUs (inventory --format json
 * writes it once to warm its writer): everything else as the finished inventory has it, the GPUs said to be pending.
 */
class InventoryWithoutGpusTest {

    @Test
    void theRestIsHandedOverWhileTheGpusAreStillRead() {
        HostRoot root = HostRoot.at(Path.of("src/test/resources/trees/h200x4-capture").toAbsolutePath());
        CountDownLatch handedOver = new CountDownLatch(1);
        // an NVML that answers only once the inventory without GPUs has been handed over
        GpuCollector slowNvml = GpuCollector.withNvml(() -> {
            try {
                assertThat(handedOver.await(30, TimeUnit.SECONDS)).isTrue();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return new NvmlLoad.Unavailable("no driver in this test");
        });
        List<NodeInventory> handed = new CopyOnWriteArrayList<>();
        NodeInventory whole = new InventoryCollector(slowNvml, Clock.system()).collect(root, partial -> {
            handed.add(partial);
            handedOver.countDown();
        });

        assertThat(handed).singleElement().satisfies(p -> {
            assertThat(p.gpu().nvml()).isEqualTo(Reading.absent("the GPUs are still being read"));
            assertThat(p.gpu().gpus()).isEmpty();
            assertThat(p.pciDevices()).isEqualTo(whole.pciDevices()).isNotEmpty();
            assertThat(p.rdmaDevices()).isEqualTo(whole.rdmaDevices());
            assertThat(p.interfaces()).isEqualTo(whole.interfaces()).isNotEmpty();
            assertThat(p.host()).isEqualTo(whole.host());
            assertThat(p.hostname()).isEqualTo(whole.hostname());
        });
        assertThat(whole.gpu().nvml()).isEqualTo(Reading.absent("NVML unavailable: no driver in this test"));
    }
}
