package dev.railyard.check;

import dev.railyard.model.Finding;
import dev.railyard.model.NetInterface;
import dev.railyard.model.NodeInventory;
import dev.railyard.model.RdmaPort;
import dev.railyard.model.Severity;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static dev.railyard.check.Inventories.*;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each threshold on both sides of its edge, where mutation testing found a changed comparison (> for >=, a dropped
 * epsilon) that no other test noticed.
 */
class ThresholdBoundaryTest {

    @ParameterizedTest
    @CsvSource({"9, PASS", "10, PASS", "11, WARN"})
    void carrierChangesWarnAboveTen(long changes, Severity expected) {
        NetInterface nic = netdev("ens6", 9000, "up", List.of("10.0.1.1/24"), "0000:04:00.0", changes);
        List<Finding> out = new CarrierCheck().run(CheckInput.withoutSpec(withInterfaces(s1(), List.of(nic))));
        assertThat(out).singleElement().extracting(Finding::severity).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "10 Gb/sec (1X QDR) | 10 | 1X | FAIL",
            "25 Gb/sec (1X EDR) | 25 | 1X | FAIL",
            "39.9 Gb/sec (4X)   | 39.9 | 4X | FAIL",
            "40 Gb/sec (4X QDR) | 40 | 4X | PASS",
            "56 Gb/sec (4X FDR) | 56 | 4X | PASS"})
    void aRateBelowTheSpecs40GFails(String raw, double gbps, String width, Severity expected) {
        RdmaPort p = port("mlx4_0", 2, 4, "ACTIVE", 5, "LinkUp", raw.trim(), gbps, width.trim(), "Ethernet", 0,
                seed000Gids(), Map.of());
        NodeInventory inv = withPort(s1(), p);
        CheckInput in = new CheckInput(inv, Optional.of(s1Spec()), "gpuserver1");
        Finding f = Found.one(new RdmaRateCheck().run(in), RdmaRateCheck.ID, "mlx4_0:2");
        assertThat(f.severity()).as(raw).isEqualTo(expected);
        assertThat(f.expected()).isEqualTo("40 Gb/sec (spec)");
    }
}
