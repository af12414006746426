package dev.railyard.agent;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** An operator's clear on the agent over the real H100 node tree: what it covers, and that a restart keeps it. */
class AgentClearTest {

    static final String XID_79 = "[ 1234.567890] NVRM: Xid (PCI:0000:1b:00): 79, pid=0, GPU has fallen off the bus.";

    @TempDir
    Path dir;
    @TempDir
    Path stateDir;

    private static boolean xidUnhealthy(AgentState s) {
        return s.components().stream().anyMatch(c -> c.checkId().equals("gpu.xid") && c.state() == HealthState.UNHEALTHY);
    }

    @Test
    void aClearedXidStillInTheKernelBufferDoesNotDrainAgainAfterARestart() throws Exception {
        AgentTree tree = new AgentTree(dir);
        Optional<AgentStateFile> state = Optional.of(new AgentStateFile(stateDir.resolve("agent-state.json")));
        tree.restartKernelLog(state);
        tree.appendKernelLog(XID_79);
        Agent agent = tree.agent(Optional.empty(), Optional.empty(), Duration.ofMinutes(5), Optional.empty());
        assertThat(xidUnhealthy(agent.tick())).isTrue();
        assertThat(agent.clearing("all").notKept()).isEmpty();
        tree.clock.advance(Duration.ofSeconds(1));
        assertThat(xidUnhealthy(agent.tick())).isFalse();
        assertThat(Files.readString(stateDir.resolve("agent-state.json"))).containsPattern("\"kernelLogClearedThroughMicros\" ?: ?1234567890");

        // the agent restarts: its follower reads the whole buffer again, the Xid 79 included
        tree.restartKernelLog(state);
        Agent restarted = tree.agent(Optional.empty(), Optional.empty(), Duration.ofMinutes(5), Optional.empty());
        tree.clock.advance(Duration.ofSeconds(1));
        assertThat(xidUnhealthy(restarted.tick())).as("the Xid cleared before the restart").isFalse();

        // an Xid after the clear is judged as ever
        tree.appendKernelLog("[ 2000.000001] NVRM: Xid (PCI:0000:1b:00): 79, pid=0, GPU has fallen off the bus.");
        tree.clock.advance(Duration.ofSeconds(1));
        assertThat(xidUnhealthy(restarted.tick())).as("a new Xid").isTrue();
    }

    @Test
    void aMarkFromAnotherBootIsNotApplied() throws Exception {
        AgentTree tree = new AgentTree(dir);
        Path file = stateDir.resolve("agent-state.json");
        Files.writeString(file, "{\"schemaVersion\":1,\"bootId\":\"an-earlier-boot\",\"kernelLogClearedThroughMicros\":999999999999}\n");
        tree.restartKernelLog(Optional.of(new AgentStateFile(file)));
        tree.appendKernelLog(XID_79);
        Agent agent = tree.agent(Optional.empty(), Optional.empty(), Duration.ofMinutes(5), Optional.empty());
        assertThat(xidUnhealthy(agent.tick())).isTrue();
    }

    @Test
    void clearingAPortStartsItsCounterWindowAgain() throws Exception {
        AgentTree tree = new AgentTree(dir);
        Agent agent = tree.agent(Optional.empty(), Optional.empty(), Duration.ofMinutes(5), Optional.empty());
        agent.tick();
        tree.write(AgentTree.PORT + "/counters/symbol_error", "17\n");
        tree.clock.advance(Duration.ofSeconds(1));
        AgentState s = agent.tick();
        assertThat(s.components()).anyMatch(c -> c.component().equals("mlx5_0:1") && c.state() == HealthState.UNHEALTHY);

        assertThat(agent.clear("mlx5_0:1")).isEqualTo(1);
        tree.clock.advance(Duration.ofSeconds(1));
        s = agent.tick();
        assertThat(s.components()).filteredOn(c -> c.component().equals("mlx5_0:1")).singleElement()
                .as("the 17 errors acknowledged no longer count toward the hour").matches(c -> c.state() == HealthState.HEALTHY);

        tree.write(AgentTree.PORT + "/counters/symbol_error", "18\n");
        tree.clock.advance(Duration.ofSeconds(1));
        s = agent.tick();
        assertThat(s.components()).filteredOn(c -> c.component().equals("mlx5_0:1")).singleElement()
                .as("a new error after the clear").matches(c -> c.state() == HealthState.DEGRADED && c.reason().contains("symbol_error +1 (1 in the last hour)"));
    }
}
