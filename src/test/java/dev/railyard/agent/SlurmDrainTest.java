package dev.railyard.agent;

import dev.railyard.platform.CommandRunner;
import dev.railyard.testing.RealSlurm;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The agent against a real slurmctld and slurmd (Debian's slurm-wlm, started here): an unhealthy node is drained
 * with a "railyard:" reason and resumed after the hold-down; an admin's drain is never touched.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SlurmDrainTest {

    Path slurmDir;
    RealSlurm slurm;

    @TempDir
    Path treeDir;
    AgentTree tree;
    Agent agent;

    @BeforeAll
    void startSlurm() throws Exception {
        slurmDir = java.nio.file.Files.createTempDirectory("railyard-slurm");
        slurm = RealSlurm.start(slurmDir, List.of("n1"));
    }

    @AfterAll
    void stopSlurm() {
        if (slurm != null) slurm.close();
    }

    @BeforeEach
    void freshNode() throws Exception {
        if (node().contains("DRAIN")) slurm.scontrol("update", "NodeName=n1", "State=RESUME");
        java.nio.file.Path d = java.nio.file.Files.createTempDirectory(treeDir, "tree");
        tree = new AgentTree(d);
        SlurmControl control = new SlurmControl(CommandRunner.system(), "scontrol", slurm.env());
        agent = tree.agent(Optional.empty(), Optional.empty(), Duration.ofMinutes(5),
                Optional.of(new SlurmDrainPolicy(control, "n1")));
    }

    private String node() throws Exception {
        return slurm.scontrol("show", "node", "-o", "n1");
    }

    private void breakPort() throws Exception {
        agent.tick();
        tree.write(AgentTree.PORT + "/state", "1: DOWN\n");
        tree.clock.advance(Duration.ofSeconds(1));
        agent.tick();
        tree.clock.advance(Duration.ofSeconds(31));
    }

    @Test
    void anUnhealthyNodeIsDrainedWithARailyardReasonAndResumedAfterTheHoldDown() throws Exception {
        breakPort();
        AgentState s = agent.tick();
        assertThat(s.health()).isEqualTo(HealthState.UNHEALTHY);
        assertThat(s.slurm().lastAction()).contains("drained");
        assertThat(node()).containsPattern("State=\\S*DRAIN").contains("Reason=railyard: mlx5_0:1 rdma.port.state");

        tree.write(AgentTree.PORT + "/state", "4: ACTIVE\n");
        tree.clock.advance(Duration.ofSeconds(1));
        agent.tick();
        assertThat(node()).as("inside the hold-down").containsPattern("State=\\S*DRAIN");
        tree.clock.advance(Duration.ofMinutes(5));
        s = agent.tick();
        assertThat(s.slurm().lastAction()).contains("resumed");
        assertThat(node()).doesNotContain("DRAIN").doesNotContain("Reason=railyard");
    }

    /**
     * The drain line of an UNHEALTHY port's fix, run by bash as a root shell on n1 would, drains the node with a short
     * reason; not a "railyard:" one, so the agent leaves that drain to the admin who made it.
     */
    @Test
    void theDrainLineOfAFixDrainsTheNodeForTheAdminToResume() throws Exception {
        Agent watching = tree.agent(Optional.empty(), Optional.empty(), Duration.ofMinutes(5), Optional.empty());
        watching.tick();
        tree.write(AgentTree.PORT + "/state", "1: DOWN\n");
        tree.clock.advance(Duration.ofSeconds(31));
        watching.tick();
        tree.clock.advance(Duration.ofSeconds(31));
        ComponentHealth port = watching.tick().components().stream().filter(c -> c.component().equals("mlx5_0:1"))
                .findFirst().orElseThrow();
        assertThat(port.state()).isEqualTo(HealthState.UNHEALTHY);
        String drain = port.action().lines().filter(l -> l.startsWith("scontrol ")).findFirst().orElseThrow();

        ProcessBuilder pb = new ProcessBuilder("bash", "-c", "hostname() { echo n1; }\n" + drain).redirectErrorStream(true);
        pb.environment().putAll(slurm.env());
        Process p = pb.start();
        String said = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(p.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(drain + ": " + said).isZero();
        assertThat(node()).containsPattern("State=\\S*DRAIN").contains("Reason=mlx5_0 port 1: the port left ACTIVE");
        assertThat(SlurmNode.parse(node().strip()).orElseThrow().drainedByRailyard()).isFalse();
    }

    @Test
    void anAdminsDrainIsNeverOverwrittenNorResumed() throws Exception {
        slurm.scontrol("update", "NodeName=n1", "State=DRAIN", "Reason=maintenance by alice");
        breakPort();
        agent.tick();
        assertThat(node()).contains("Reason=maintenance by alice");
        tree.write(AgentTree.PORT + "/state", "4: ACTIVE\n");
        tree.clock.advance(Duration.ofMinutes(6));
        agent.tick();
        tree.clock.advance(Duration.ofMinutes(6));
        assertThat(agent.tick().health()).isNotEqualTo(HealthState.UNHEALTHY);
        assertThat(node()).containsPattern("State=\\S*DRAIN").contains("Reason=maintenance by alice");
    }

    @Test
    void aDrainLeftByAnEarlierAgentIsResumedOnceHealthy() throws Exception {
        slurm.scontrol("update", "NodeName=n1", "State=DRAIN", "Reason=railyard: GPU0 gpu.xid (from before a restart)");
        AgentState s = agent.tick();
        assertThat(s.health()).isNotEqualTo(HealthState.UNHEALTHY);
        assertThat(s.slurm().lastAction()).contains("resumed");
        assertThat(node()).doesNotContain("DRAIN");
    }

    @Test
    void scontrolShowParsesTheRealOutput() throws Exception {
        slurm.scontrol("update", "NodeName=n1", "State=DRAIN", "Reason=railyard: two words [and brackets]");
        SlurmNode n = SlurmNode.parse(node().strip()).orElseThrow();
        assertThat(n.name()).isEqualTo("n1");
        assertThat(n.drainedOrDraining()).isTrue();
        assertThat(n.reason()).contains("railyard: two words [and brackets]");
        assertThat(n.drainedByRailyard()).isTrue();
    }
}
