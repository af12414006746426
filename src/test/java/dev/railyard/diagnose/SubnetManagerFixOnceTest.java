package dev.railyard.diagnose;

import dev.railyard.bench.TextLines;
import dev.railyard.check.Fix;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * No subnet manager has one fix, whoever finds it: the catalog line, ibstat's INIT port, and (in RdmaChecksTreeTest
 * and AgentFixesTest) the node check and the agent all give {@link Fix#START_SUBNET_MANAGER}.
 */
class SubnetManagerFixOnceTest {

    @Test
    void theCatalogAndPortVerdictsGiveTheOneFix() {
        var found = DiagnosisCatalog.standard().match(TextLines.of("                State: Initializing"));
        assertThat(found).singleElement().satisfies(d -> assertThat(d.fix()).isEqualTo(Fix.START_SUBNET_MANAGER));
        assertThat(PortVerdicts.noSubnetManager("mlx4_0", 1, "mlx4_0:1", 1, "State: Initializing").fix())
                .contains(Fix.START_SUBNET_MANAGER);
    }
}
