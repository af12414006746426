package dev.railyard.agent;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * mlx5 link changes in the kernel log, from real dmesg and journalctl -k captures, judged by the agent: a drop is
 * DEGRADED, repeated drops in the flap window UNHEALTHY, and the link is healthy again after the window and the
 * hold-down.
 */
class KernelLinkEventTest {

    @TempDir
    Path dir;

    AgentTree tree;
    Agent agent;

    @BeforeEach
    void start() throws Exception {
        tree = new AgentTree(dir);
        agent = tree.agent(Optional.empty(), Optional.empty(), Duration.ofMinutes(5), Optional.empty());
        agent.tick();
    }

    static List<String> realLines(String resource, String contains) throws Exception {
        return Files.readAllLines(Path.of("src/test/resources/ib-tools", resource)).stream()
                .filter(l -> l.contains("mlx5_core") && l.contains(contains)).toList();
    }

    private ComponentHealth component(AgentState s, String name) {
        return s.components().stream().filter(c -> c.component().equals(name)).findFirst().orElseThrow(
                () -> new AssertionError(name + " not among " + s.components().stream().map(ComponentHealth::component).toList()));
    }

    @Test
    void aNetdevLinkDownLineDegradesThatNetdevAndRepeatedDropsMakeItUnhealthy() throws Exception {
        // "mlx5_core 0000:9d:00.1 enp157s0f1np1: Link down" from a real boot (dmesg --time-format=iso)
        String down = realLines("dmesg-gpud-boot-mlx5_core-decode-iso.txt", "enp157s0f1np1: Link down").getFirst();
        tree.appendKernelLog(down);
        tree.clock.advance(Duration.ofSeconds(1));
        AgentState s = agent.tick();
        ComponentHealth nic = component(s, "enp157s0f1np1");
        assertThat(nic.state()).isEqualTo(HealthState.DEGRADED);
        assertThat(nic.reason()).contains("net.carrier").contains("1 link drop(s) in the kernel log");

        for (int i = 0; i < 5; i++) tree.appendKernelLog(down);
        tree.clock.advance(Duration.ofSeconds(1));
        assertThat(component(agent.tick(), "enp157s0f1np1").state()).as("6 drops in 10 min").isEqualTo(HealthState.UNHEALTHY);

        tree.clock.advance(Duration.ofMinutes(11)); // out of the flap window: better, held down 5 min
        assertThat(component(agent.tick(), "enp157s0f1np1").state()).isEqualTo(HealthState.UNHEALTHY);
        tree.clock.advance(Duration.ofMinutes(5));
        assertThat(component(agent.tick(), "enp157s0f1np1").state()).isEqualTo(HealthState.HEALTHY);
    }

    @Test
    void aPortStateLineOtherThanActiveDegradesThatPortAndLinkUpLinesDoNot() throws Exception {
        // journalctl -k from gpud#1209: "mlx5_core 0000:ab:00.0 mlx5_5: Port: 1 Link INIT", later "... Link ACTIVE"
        for (String line : realLines("issue-gpud-pr1209-journalctl-k-mlx5-port-link-INIT-ACTIVE.txt", "Port: 1 Link ACTIVE")) {
            tree.appendKernelLog(line);
        }
        for (String line : realLines("dmesg-gpud-boot-mlx5_core-decode-iso.txt", ": Link up")) tree.appendKernelLog(line);
        tree.clock.advance(Duration.ofSeconds(1));
        AgentState s = agent.tick();
        assertThat(component(s, "mlx5_5:1").state()).as("ACTIVE is no drop").isEqualTo(HealthState.HEALTHY);

        tree.appendKernelLog(realLines("issue-gpud-pr1209-journalctl-k-mlx5-port-link-INIT-ACTIVE.txt", "Port: 1 Link INIT").getFirst());
        tree.clock.advance(Duration.ofSeconds(1));
        ComponentHealth port = component(agent.tick(), "mlx5_5:1");
        assertThat(port.state()).isEqualTo(HealthState.DEGRADED);
        assertThat(port.reason()).startsWith("rdma.port.state: 1 link drop(s) in the kernel log");
    }
}
