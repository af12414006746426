package dev.railyard.check;

import dev.railyard.agent.KernelLinkEventDetector;
import dev.railyard.agent.KernelLogFollower;
import dev.railyard.agent.LinkFlapDetector;
import dev.railyard.diagnose.Diagnoser;
import dev.railyard.diagnose.Diagnosis;
import dev.railyard.model.Finding;
import dev.railyard.model.NetInterface;
import dev.railyard.model.NodeInventory;
import dev.railyard.model.Severity;
import dev.railyard.platform.HostRoot;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Link drops through every path that sees them: the agent's kernel-log detector (one drop within its window), its
 * carrier-change detector (one change within the window, for a netdev) and diagnose of the same kernel-log line (the
 * last event of that link is a drop). One drop is one drop: the same check, subject, severity and fix everywhere.
 */
class OneVerdictPerLinkFactsTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final Duration WINDOW = Duration.ofMinutes(10);

    @TempDir
    Path dir;

    /** A kernel-log line, the check and subject it is about, the one severity. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "[   12.5] mlx5_core 0000:9d:00.1 enp157s0f1np1: Link down | net.carrier | enp157s0f1np1 | WARN",
            "[   12.5] mlx5_core 0000:9d:00.1 eth$(reboot)': Link down | net.carrier | eth$(reboot)' | WARN",
            "[   12.5] mlx5_core 0000:01:00.0: mlx5_5: Port: 1 Link DOWN | rdma.port.state | mlx5_5:1 | WARN",
    })
    void oneLinkDropIsJudgedAlikeEverywhere(String line, String id, String subject, Severity want) throws Exception {
        Files.createDirectories(dir.resolve("railyard"));
        Files.writeString(dir.resolve("railyard/dmesg.txt"), "");
        KernelLogFollower log = KernelLogFollower.start(HostRoot.at(dir));
        KernelLinkEventDetector events = new KernelLinkEventDetector(log, WINDOW, 6);
        NodeInventory inv = Inventories.s1();
        log.collect(HostRoot.at(dir));
        events.observe(inv, T0);
        Files.writeString(dir.resolve("railyard/dmesg.txt"), line + "\n");
        log.collect(HostRoot.at(dir));
        Finding agent = one(events.observe(inv, T0.plusSeconds(1)), id, subject);
        Finding pasted = one(Diagnoser.standard().diagnose(line + "\n").diagnoses().stream().map(Diagnosis::finding)
                .toList(), id, subject);

        assertThat(List.of(agent, pasted)).extracting(Finding::severity).containsOnly(want);
        assertThat(pasted.remediation()).isEqualTo(agent.remediation());
        if (id.equals("net.carrier")) {
            LinkFlapDetector flaps = new LinkFlapDetector(WINDOW, 6);
            flaps.observe(withNetdev(subject, 1), T0);
            Finding changed = one(flaps.observe(withNetdev(subject, 2), T0.plusSeconds(1)), id, subject);
            assertThat(changed.severity()).isEqualTo(want);
            assertThat(changed.remediation()).isEqualTo(agent.remediation());
        }
        log.close();
    }

    /** A flapping link, six drops within the window: FAIL, with the agent's drain after the one fix. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "[   12.5] mlx5_core 0000:9d:00.1 enp157s0f1np1: Link down | net.carrier | enp157s0f1np1",
            "[   12.5] mlx5_core 0000:01:00.0: mlx5_5: Port: 1 Link DOWN | rdma.port.state | mlx5_5:1",
    })
    void aFlappingLinkIsJudgedAlikeByBothDetectors(String line, String id, String subject) throws Exception {
        Files.createDirectories(dir.resolve("railyard"));
        Files.writeString(dir.resolve("railyard/dmesg.txt"), (line + "\n").repeat(6));
        KernelLogFollower log = KernelLogFollower.start(HostRoot.at(dir));
        log.collect(HostRoot.at(dir));
        Finding agent = one(new KernelLinkEventDetector(log, WINDOW, 6).observe(Inventories.s1(), T0), id, subject);
        Finding pasted = one(Diagnoser.standard().diagnose(line + "\n").diagnoses().stream().map(Diagnosis::finding)
                .toList(), id, subject);
        assertThat(agent.severity()).isEqualTo(Severity.FAIL);
        assertThat(withoutDrain(agent.remediation())).isEqualTo(pasted.remediation());
        if (id.equals("net.carrier")) {
            LinkFlapDetector flaps = new LinkFlapDetector(WINDOW, 6);
            flaps.observe(withNetdev(subject, 1), T0);
            Finding flapping = one(flaps.observe(withNetdev(subject, 7), T0.plusSeconds(1)), id, subject);
            assertThat(flapping.severity()).isEqualTo(Severity.FAIL);
            assertThat(flapping.remediation()).isEqualTo(agent.remediation());
        }
        log.close();
    }

    private static NodeInventory withNetdev(String name, long carrierChanges) {
        NetInterface nd = Inventories.netdev(name, 9000, "up", List.of("10.0.0.1/24"), "0000:9d:00.1", carrierChanges);
        return Inventories.withInterfaces(Inventories.s1(), List.of(nd));
    }

    private static String withoutDrain(String fix) {
        return fix.lines().filter(l -> !l.startsWith("scontrol update nodename=")).collect(Collectors.joining("\n"));
    }

    private static Finding one(List<Finding> findings, String id, String subject) {
        return findings.stream().filter(f -> f.id().equals(id) && f.subject().equals(subject)).findFirst()
                .orElseThrow(() -> new AssertionError(id + " " + subject + " not among " + findings));
    }
}
