package dev.railyard.cli;

import dev.railyard.collect.GpuCollector;
import dev.railyard.collect.InventoryCollector;
import dev.railyard.nativelib.FakeNvmlLibrary;
import dev.railyard.nativelib.FfmNvml;
import dev.railyard.platform.Clock;
import dev.railyard.platform.HostRoot;
import dev.railyard.platform.Timings;
import dev.railyard.report.InventoryTextTrees;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

/** inventory --timings on a captured tree: every phase named, on its thread, from the JVM's start. */
class InventoryTimingsTest {

    @Test
    void timingsAreOnlyKeptWhenAskedFor() {
        assertThat(Main.timingsFor(Map.of(), "inventory").on()).isFalse();
        assertThat(Main.timingsFor(Map.of("RAILYARD_TIMINGS", ""), "inventory").on()).isFalse();
        assertThat(Main.timingsFor(Map.of("RAILYARD_TIMINGS", "1"), "inventory").on()).isTrue();
        assertThat(Main.timingsFor(Map.of(), "inventory", "--timings").on()).isTrue();
        Timings off = Timings.off();
        assertThat(off.time("x", () -> 42)).isEqualTo(42);
        assertThat(off.phases()).isEmpty();
    }

    @Test
    void everyPhaseOfAnInventoryOfACaptureIsNamed(@TempDir Path dir) throws Exception {
        Path root = InventoryTextTrees.gpudH100(dir);
        long launcher = System.currentTimeMillis() * 1_000_000L - 5_000_000_000L; // "the launcher started 5 s ago"
        Timings t = Main.timingsFor(Map.of("RAILYARD_T0_NS", Long.toString(launcher)), "inventory", "--timings");
        String[] args = {"inventory", "--root", root.toString(), "--format", "json", "--timings"};
        long building = System.nanoTime();
        CommandLine cl = Main.commandLineFor(t, args);
        t.record("CLI build (picocli command model, command classes)", building);
        StringWriter out = new StringWriter();
        cl.setOut(new PrintWriter(out));
        assertThat(cl.execute(args)).isZero();
        assertThat(out.toString()).as("stdout keeps only the JSON").startsWith("{").doesNotContain("timings");
        String table = t.render();
        assertThat(table).contains("JVM start to main", "CLI build", "collect (all readers)", "pci", "infiniband", "net",
                "host", "kernel log (Xid)", "topology", "waiting for the GPU thread", "JSON warm-up", "JSON write", "print",
                "total");
        assertThat(t.phases()).filteredOn(p -> p.name().equals("pci")).singleElement()
                .satisfies(p -> assertThat(p.thread()).isEqualTo("railyard-gpu"));
        assertThat(t.phases()).filteredOn(p -> p.name().startsWith("JVM start")).singleElement()
                .satisfies(p -> assertThat(p.ms()).isBetween(4_000.0, 600_000.0));
        assertThat(t.phases()).allSatisfy(p -> assertThat(p.ms()).isNotNegative());
    }

    @Test
    void nvmlPhasesAreSplitIntoLoadReadsAndShutdown(@TempDir Path dir) throws Throwable {
        try (FakeNvmlLibrary fake = FakeNvmlLibrary.build(Files.createDirectories(dir.resolve("lib")))) {
            Timings t = Timings.startedAtMain(OptionalLong.empty());
            Files.createDirectories(dir.resolve("tree/sys"));
            new InventoryCollector(GpuCollector.withNvml(() -> FfmNvml.open(fake.path())), Clock.system(), t)
                    .collect(HostRoot.at(dir.resolve("tree")));
            assertThat(t.phases()).extracting(Timings.Phase::name)
                    .contains("NVML load and init", "NVML reads", "NVML shutdown");
            assertThat(fake.refcount()).isZero();
        }
    }
}
