package dev.railyard.agent;

import dev.railyard.check.CheckRunner;
import dev.railyard.collect.GpuCollector;
import dev.railyard.collect.InventoryCollector;
import dev.railyard.platform.HostRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** What the agent must not miss between samples: a port flapping in sysfs alone, a GPU that is gone. */
class AgentMissedStatesTest {

    @TempDir
    Path dir;

    @Test
    void aPortFlappingInSysfsAloneBecomesUnhealthy() throws Exception {
        AgentTree tree = new AgentTree(dir);
        Agent agent = tree.agent(Optional.empty(), Optional.empty(), Duration.ofMinutes(5), Optional.empty());
        agent.tick();
        AgentState s = null;
        // 6 drops of 1 s within a minute: each far shorter than the 30 s drop window, link_downed never moves
        for (int drop = 1; drop <= 6; drop++) {
            tree.write(AgentTree.PORT + "/state", "1: DOWN\n");
            tree.clock.advance(Duration.ofSeconds(3));
            agent.tick();
            tree.write(AgentTree.PORT + "/state", "4: ACTIVE\n");
            tree.clock.advance(Duration.ofSeconds(3));
            s = agent.tick();
        }
        assertThat(Files.readString(tree.root.resolve(AgentTree.PORT + "/counters/link_downed")).strip()).isEqualTo("0");
        assertThat(s.components()).filteredOn(c -> c.component().equals("mlx5_0:1")).singleElement()
                .matches(c -> c.state() == HealthState.UNHEALTHY, "unhealthy")
                .matches(c -> c.reason().contains("6 drops from ACTIVE seen in the last 10 min"), "says why");
        assertThat(s.components()).filteredOn(c -> c.component().equals("mlx5_1:1")).singleElement()
                .matches(c -> c.state() == HealthState.HEALTHY, "the other ports stay healthy");
    }

    @Test
    void aGpuSeenBeforeAndGoneIsUnhealthyAndTheRenumberedRowsDoNotLinger() throws Exception {
        copy(Path.of("src/test/resources/trees/h200x4-capture"), dir);
        SteppedClock clock = new SteppedClock();
        HostRoot host = HostRoot.at(dir);
        try (KernelLogFollower kernelLog = KernelLogFollower.start(host)) {
            Sampler sampler = new Sampler(host, new InventoryCollector(GpuCollector.forRoot(host), kernelLog, clock, 1),
                    CheckRunner.nodeChecks(), List.of(new GpuPresenceDetector()), Optional.empty(), "vm", clock);
            Agent agent = new Agent(sampler, new HealthTracker("vm", Duration.ofMinutes(5)), Optional.empty(), kernelLog,
                    clock, Duration.ofSeconds(1));
            AgentState s = agent.tick();
            assertThat(gpuRows(s)).containsExactly("GPU0 (0000:00:06.0)", "GPU1 (0000:00:07.0)", "GPU2 (0000:00:08.0)",
                    "GPU3 (0000:00:09.0)");

            // GPU1 falls off the bus: gone from PCI and from nvidia-smi, and the GPUs after it are numbered down
            Path xml = dir.resolve("railyard/nvidia-smi-q.xml");
            String text = Files.readString(xml);
            int from = text.indexOf("\t<gpu id=\"00000000:00:07.0\">");
            int to = text.indexOf("\t<gpu id=\"00000000:00:08.0\">");
            Files.writeString(xml, text.substring(0, from) + text.substring(to));
            Files.delete(dir.resolve("sys/bus/pci/devices/0000:00:07.0"));
            clock.advance(Duration.ofSeconds(1));
            s = agent.tick();

            assertThat(gpuRows(s)).as("one row per GPU address, none left under an old number")
                    .containsExactlyInAnyOrder("GPU0 (0000:00:06.0)", "GPU1 (0000:00:07.0)", "GPU1 (0000:00:08.0)",
                            "GPU2 (0000:00:09.0)");
            assertThat(s.components()).filteredOn(c -> c.component().equals("GPU1 (0000:00:07.0)")).singleElement()
                    .matches(c -> c.state() == HealthState.UNHEALTHY && c.checkId().equals("gpu.count"), "unhealthy")
                    .matches(c -> c.reason().contains("the GPU at 0000:00:07.0 was seen until") && c.reason().contains("is gone"));
            assertThat(s.health()).isEqualTo(HealthState.UNHEALTHY);
        }
    }

    private static List<String> gpuRows(AgentState s) {
        return s.components().stream().filter(c -> c.kind() == ComponentKind.GPU).map(ComponentHealth::component).sorted().toList();
    }

    private static void copy(Path from, Path to) throws Exception {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isSymbolicLink(p)) Files.createSymbolicLink(t, Files.readSymbolicLink(p));
                else if (Files.isDirectory(p)) Files.createDirectories(t);
                else Files.copy(p, t, StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }
}
