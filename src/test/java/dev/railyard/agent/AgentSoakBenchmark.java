package dev.railyard.agent;

import dev.railyard.nativelib.FakeNvmlLibrary;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * 24 hours of the agent in minutes: 8640 samples 10 s apart over the real H100 tree with the eight-GPU fake NVML,
 * counters rising, an Xid line every 10 minutes and a port flap every hour. Heap after a full GC and the process's
 * RSS are printed at the start and the end (docs/benchmarks.md records them). Run with
 * {@code mvn test -Drailyard.excludedGroups=gpu -Dgroups=benchmark -Dtest=AgentSoakBenchmark}.
 */
@Tag("benchmark")
class AgentSoakBenchmark {

    static final int DAY_OF_10S_STEPS = 8640;
    static final int WARM_UP = 420;

    @Test
    void aDayOfSamplesLeavesHeapWhereTheFirstHourLeftIt(@TempDir Path dir) throws Exception {
        Path lib = Files.createDirectories(dir.resolve("lib"));
        try (FakeNvmlLibrary nvml = FakeNvmlLibrary.build(lib, "FAKE_NVML_EIGHT_GPUS")) {
            AgentTree tree = new AgentTree(Files.createDirectories(dir.resolve("root")));
            tree.rereadEvery = 6; // --reread 1m over --interval 10s
            Agent agent = tree.agent(Optional.empty(), Optional.of(nvml.path()), Duration.ofMinutes(5), Optional.empty());
            AgentSoak soak = new AgentSoak(tree, agent, Duration.ofSeconds(10));

            // the first 70 minutes: JIT, class loading and every ring filling (the counters' 400 points at 10 s)
            soak.run(WARM_UP, 60, 1, 360);
            long heapStart = heapAfterGc();
            long rssStart = rssKb();
            int heldStart = agent.held();
            long t0 = System.nanoTime();
            AgentState last = soak.run(DAY_OF_10S_STEPS - WARM_UP, 60, 1, 360);
            double seconds = (System.nanoTime() - t0) / 1e9;
            long heapEnd = heapAfterGc();
            long rssEnd = rssKb();
            int heldEnd = agent.held();

            System.out.printf("soak: %d samples, 10 s steps (%.1f h simulated) in %.1f s wall, %.2f ms/sample%n",
                    last.sampleCount(), last.sampleCount() * 10 / 3600.0, seconds,
                    seconds * 1000 / (DAY_OF_10S_STEPS - WARM_UP));
            System.out.printf("soak: heap after GC %d KB at 1 h, %d KB at 24 h; RSS %d KB at 1 h, %d KB at 24 h; "
                    + "entries held %d at 1 h, %d at 24 h%n", heapStart / 1024, heapEnd / 1024, rssStart, rssEnd,
                    heldStart, heldEnd);
            assertThat(last.sampleCount()).isEqualTo(DAY_OF_10S_STEPS);
            // the Xid events (one every 10 min here) are the only store still filling: 137 more, below KEEP = 1000
            assertThat(heldEnd).as("entries held").isLessThanOrEqualTo(heldStart + (DAY_OF_10S_STEPS - WARM_UP) / 60 + 1);
            // a leak of one small object per sample over 8280 samples would show as megabytes
            assertThat(heapEnd).as("heap after GC, bytes").isLessThan(heapStart + 2L * 1024 * 1024);
        }
    }

    private static long heapAfterGc() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(100);
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private static long rssKb() throws java.io.IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmRSS:")) return Long.parseLong(line.replaceAll("[^0-9]", ""));
        }
        throw new IllegalStateException("no VmRSS in /proc/self/status");
    }
}
