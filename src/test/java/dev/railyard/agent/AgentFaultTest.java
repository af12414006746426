package dev.railyard.agent;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** The agent over a real H100 node tree: faults written into the tree change health; recovery waits the hold-down. */
class AgentFaultTest {

    @TempDir
    Path dir;

    AgentTree tree;
    Agent agent;

    @BeforeEach
    void start() throws Exception {
        tree = new AgentTree(dir);
        agent = tree.agent(Optional.empty(), Optional.empty(), Duration.ofMinutes(5), Optional.empty());
    }

    private ComponentHealth component(AgentState s, String name) {
        return s.components().stream().filter(c -> c.component().equals(name)).findFirst().orElseThrow(
                () -> new AssertionError(name + " not among " + s.components().stream().map(ComponentHealth::component).toList()));
    }

    @Test
    void everyPortOfTheRealTreeIsHealthyAtFirst() {
        AgentState s = agent.tick();
        for (String port : new String[]{"mlx5_0:1", "mlx5_1:1", "mlx5_4:1", "mlx5_9:1"}) {
            assertThat(component(s, port).state()).as(port).isEqualTo(HealthState.HEALTHY);
        }
        assertThat(s.health()).isNotEqualTo(HealthState.UNHEALTHY);
    }

    @Test
    void aPortThatDropsIsDegradedAtOnceAndUnhealthyAfterTheDropWindow() throws Exception {
        agent.tick();
        tree.write(AgentTree.PORT + "/state", "1: DOWN\n");
        tree.clock.advance(Duration.ofSeconds(1));
        AgentState s = agent.tick();
        assertThat(component(s, "mlx5_0:1").state()).isEqualTo(HealthState.DEGRADED);
        assertThat(s.health()).isNotEqualTo(HealthState.UNHEALTHY);

        tree.clock.advance(Duration.ofSeconds(30));
        s = agent.tick();
        assertThat(component(s, "mlx5_0:1").state()).isEqualTo(HealthState.UNHEALTHY);
        assertThat(component(s, "mlx5_0:1").reason()).contains("was ACTIVE").contains("DOWN");
        assertThat(s.health()).isEqualTo(HealthState.UNHEALTHY);
    }

    @Test
    void recoveryWaitsForTheHoldDownThenClears() throws Exception {
        agent.tick();
        tree.write(AgentTree.PORT + "/state", "1: DOWN\n");
        tree.clock.advance(Duration.ofSeconds(31));
        agent.tick();
        tree.clock.advance(Duration.ofSeconds(31));
        assertThat(component(agent.tick(), "mlx5_0:1").state()).isEqualTo(HealthState.UNHEALTHY);

        tree.write(AgentTree.PORT + "/state", "4: ACTIVE\n");
        tree.clock.advance(Duration.ofSeconds(1));
        assertThat(component(agent.tick(), "mlx5_0:1").state()).as("up again, inside the hold-down").isEqualTo(HealthState.UNHEALTHY);
        tree.clock.advance(Duration.ofMinutes(4));
        assertThat(component(agent.tick(), "mlx5_0:1").state()).as("4 min into a 5 min hold-down").isEqualTo(HealthState.UNHEALTHY);
        tree.clock.advance(Duration.ofMinutes(1));
        assertThat(component(agent.tick(), "mlx5_0:1").state()).isEqualTo(HealthState.HEALTHY);
    }

    @Test
    void anOperatorClearSkipsTheHoldDown() throws Exception {
        agent.tick();
        tree.write(AgentTree.PORT + "/state", "1: DOWN\n");
        tree.clock.advance(Duration.ofSeconds(1));
        agent.tick();
        tree.clock.advance(Duration.ofSeconds(31));
        assertThat(component(agent.tick(), "mlx5_0:1").state()).isEqualTo(HealthState.UNHEALTHY);
        tree.write(AgentTree.PORT + "/state", "4: ACTIVE\n");
        assertThat(agent.clear("mlx5_0:1")).isEqualTo(1);
        tree.clock.advance(Duration.ofSeconds(1));
        assertThat(component(agent.tick(), "mlx5_0:1").state()).isEqualTo(HealthState.HEALTHY);
    }

    @Test
    void risingSymbolErrorsDegradeThenFailPastTheHourlyLimit() throws Exception {
        agent.tick();
        tree.write(AgentTree.PORT + "/counters/symbol_error", "3\n");
        tree.clock.advance(Duration.ofSeconds(1));
        AgentState s = agent.tick();
        assertThat(component(s, "mlx5_0:1").state()).isEqualTo(HealthState.DEGRADED);
        assertThat(component(s, "mlx5_0:1").reason()).contains("symbol_error +3");

        tree.write(AgentTree.PORT + "/counters/symbol_error", "17\n");
        tree.clock.advance(Duration.ofSeconds(1));
        s = agent.tick();
        assertThat(component(s, "mlx5_0:1").state()).isEqualTo(HealthState.UNHEALTHY);
        assertThat(component(s, "mlx5_0:1").reason()).contains("symbol_error +14 (17 in the last hour)");
    }

    @Test
    void errorsSpreadOverMoreThanAnHourStayBelowTheLimit() throws Exception {
        agent.tick();
        for (int i = 1; i <= 8; i++) {
            tree.write(AgentTree.PORT + "/counters/symbol_error", (i * 2) + "\n");
            tree.clock.advance(Duration.ofMinutes(20));
            agent.tick();
        }
        // 16 errors over 160 minutes: at most 6 within any hour
        tree.clock.advance(Duration.ofSeconds(1));
        AgentState s = agent.tick();
        assertThat(s.components().stream().filter(c -> c.component().equals("mlx5_0:1")).findFirst().orElseThrow().state())
                .isNotEqualTo(HealthState.UNHEALTHY);
    }

    @Test
    void anUnreadableCounterIsNeverHealthy() throws Exception {
        agent.tick();
        tree.write(AgentTree.PORT + "/counters/symbol_error", "N/A\n");
        tree.clock.advance(Duration.ofSeconds(1));
        AgentState s = agent.tick();
        assertThat(component(s, "mlx5_0:1").state()).isEqualTo(HealthState.DEGRADED);
        assertThat(component(s, "mlx5_0:1").reason()).contains("symbol_error");
    }

    @Test
    void aNewXidInTheKernelLogMakesTheNodeUnhealthyAndAClearAcknowledgesIt() throws Exception {
        agent.tick();
        tree.appendKernelLog("[ 1234.567890] NVRM: Xid (PCI:0000:1b:00): 79, pid=0, GPU has fallen off the bus.");
        tree.clock.advance(Duration.ofSeconds(1));
        AgentState s = agent.tick();
        assertThat(s.health()).isEqualTo(HealthState.UNHEALTHY);
        assertThat(s.components().getFirst().checkId()).isEqualTo("gpu.xid");

        agent.clear("all");
        tree.clock.advance(Duration.ofSeconds(1));
        assertThat(agent.tick().components()).noneMatch(c -> c.checkId().equals("gpu.xid") && c.state() == HealthState.UNHEALTHY);
    }

    @Test
    void aFlappingNetdevIsUnhealthy() throws Exception {
        agent.tick();
        for (int changes = 4; changes <= 8; changes += 2) {
            tree.write(AgentTree.ETH0 + "/carrier_changes", changes + "\n");
            tree.clock.advance(Duration.ofSeconds(20));
            agent.tick();
        }
        AgentState s = agent.state();
        assertThat(component(s, "eth0").state()).isEqualTo(HealthState.UNHEALTHY);
        assertThat(component(s, "eth0").reason()).contains("6 carrier changes in the last 10 min");
    }

    @Test
    void aCarrierChangeBetweenTwoSamplesWithTheCarrierUpAtBothIsSeen() throws Exception {
        agent.tick();
        // down and up again between two samples: carrier reads 1 at both, only the kernel's counter moved
        tree.write(AgentTree.ETH0 + "/carrier_changes", "4\n");
        tree.clock.advance(Duration.ofSeconds(1));
        AgentState s = agent.tick();
        assertThat(component(s, "eth0").state()).isEqualTo(HealthState.DEGRADED);
        assertThat(component(s, "eth0").reason()).contains("2 carrier changes in the last 10 min (4 since boot)");
    }

    @Test
    void carrierTransitionsSeenBetweenSamplesCountWhenTheKernelsCounterStandsStill() throws Exception {
        agent.tick();
        // a driver that does not count: carrier_changes stays at 2 while the samples see the link go and come back
        for (int i = 0; i < 6; i++) {
            tree.write(AgentTree.ETH0 + "/carrier", i % 2 == 0 ? "0\n" : "1\n");
            tree.clock.advance(Duration.ofSeconds(20));
            agent.tick();
        }
        AgentState s = agent.state();
        assertThat(component(s, "eth0").state()).isEqualTo(HealthState.UNHEALTHY);
        assertThat(component(s, "eth0").reason()).contains("6 carrier changes in the last 10 min")
                .contains("6 seen between samples, 0 counted by the kernel");
    }

    @Test
    void aWatchedNicIsUnknownWhileSysClassNetLeadsOutOfTheRoot() throws Exception {
        assertThat(component(agent.tick(), "eth0").state()).isEqualTo(HealthState.HEALTHY);
        Path net = tree.root.resolve("sys/class/net");
        java.nio.file.Files.delete(net.resolve("eth0"));
        java.nio.file.Files.delete(net);
        java.nio.file.Files.createSymbolicLink(net, Path.of("/sys/class/net"));
        tree.clock.advance(Duration.ofSeconds(1));
        AgentState s = agent.tick();
        assertThat(component(s, "eth0").state()).isNotEqualTo(HealthState.HEALTHY);
        assertThat(component(s, "eth0").reason()).contains("sys/class/net").contains("symlink points outside the root");
    }

    @Test
    void aWatchedPortIsUnknownNotGoneWhileSysClassInfinibandLeadsOutOfTheRoot(@TempDir Path outside) throws Exception {
        assertThat(component(agent.tick(), "mlx5_0:1").state()).isEqualTo(HealthState.HEALTHY);
        Path ib = tree.root.resolve("sys/class/infiniband");
        // the same devices, but outside the root: a link there is refused, never followed
        Path moved = outside.resolve("infiniband");
        java.nio.file.Files.move(ib, moved);
        java.nio.file.Files.createSymbolicLink(ib, moved);
        tree.clock.advance(Duration.ofSeconds(1));
        AgentState s = agent.tick();
        assertThat(component(s, "mlx5_0:1").state()).as(component(s, "mlx5_0:1").reason()).isEqualTo(HealthState.DEGRADED);
        assertThat(component(s, "mlx5_0:1").reason()).contains("sys/class/infiniband")
                .contains("symlink points outside the root").doesNotContain("now gone");
    }
}
