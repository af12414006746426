package dev.railyard.agent;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the agent keeps between samples levels off: after the windows fill (the longest is the counters' hour), more
 * hours of samples, Xid lines and flaps add nothing. The 24 h version with heap and RSS is AgentSoakBenchmark.
 */
class AgentBoundedMemoryTest {

    @Test
    void sparklinesDetectorsTrackerAndKernelLogStayBoundedOverHoursOfSamples(@TempDir Path dir) throws Exception {
        AgentTree tree = new AgentTree(dir);
        tree.rereadEvery = 60;
        Agent agent = tree.agent(Optional.empty(), Optional.empty(), Duration.ofMinutes(5), Optional.empty());
        AgentSoak soak = new AgentSoak(tree, agent, Duration.ofSeconds(30));

        // 410 samples fill every ring (the counters' 400 points are the largest); 3 Xid lines a step fill the log's 1000
        soak.run(410, 1, 3, 50);
        int full = agent.held();
        AgentState last = soak.run(90, 1, 3, 50);
        int later = agent.held();

        assertThat(last.sampleCount()).isEqualTo(500);
        assertThat(later).as("entries kept after 500 samples vs after 410").isLessThanOrEqualTo(full);
        assertThat(tree.kernelLog.held()).as("Xid events kept after 1500 lines").isLessThanOrEqualTo(KernelLogFollower.KEEP + 3);
        assertThat(last.temperatureHistory().values()).allSatisfy(p -> assertThat(p).hasSizeLessThanOrEqualTo(Agent.SPARK_POINTS));
        assertThat(last.errorHistory().values()).allSatisfy(p -> assertThat(p).hasSizeLessThanOrEqualTo(Agent.SPARK_POINTS));
        assertThat(last.errorHistory()).as("one error sparkline per port").hasSizeLessThan(20);
        assertThat(last.components()).as("one health entry per component").hasSizeLessThan(40);
    }
}
