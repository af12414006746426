package dev.railyard.cluster;

import dev.railyard.model.Culprit;
import dev.railyard.model.ValidationReport;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The scale simulation: n-1 rounds and exactly the three injected culprits (one node, one link, one rail). The time
 * and memory are measured by scripts/validate-scale-sim.sh at 512 hosts (docs/benchmarks.md), not asserted here.
 */
class ScaleSimulationTest {

    private static void assertCulprits(int hosts) throws Exception {
        ValidationReport r = ScaleSimulation.run(hosts).report();
        ScaleSimulation.Faults f = ScaleSimulation.Faults.of(hosts);
        assertThat(r.rounds()).isEqualTo(hosts - 1);
        // --quick: one RDMA bandwidth test per pair on each of the two rails
        assertThat(r.pairs().stream().filter(p -> p.attempt() == 1).count()).isEqualTo(2L * hosts * (hosts - 1) / 2);
        assertThat(r.culprits()).extracting(Culprit::subject).containsExactlyInAnyOrder(
                "node " + f.badNode() + " on rail0", "link " + f.linkA() + "<->" + f.linkB() + " on rail0", "rail rail1");
        // rail1 is bad everywhere: one round of retests confirms it, not n-1
        assertThat(r.pairs().stream().filter(p -> p.attempt() == 2 && p.test().network().equals("rail1")).count())
                .isEqualTo(hosts / 2);
        assertThat(r.complete()).isTrue();
    }

    @Test
    void oneHundredTwentyEightHosts() throws Exception {
        assertCulprits(128);
    }

    @Test
    void fiveHundredTwelveHosts() throws Exception {
        assertCulprits(512);
    }
}
