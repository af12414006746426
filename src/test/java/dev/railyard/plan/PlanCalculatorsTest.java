package dev.railyard.plan;

import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The example systems' write-ups' own numbers, reproduced, and the places where their arithmetic does not hold. */
class PlanCalculatorsTest {

    private static PowerPlan h100HdrPower(int phases, double volts) {
        return new PowerPlan(8, 8, 700, 0, 2000, 2, 1, 32, volts, phases, 0.8, 1.2);
    }

    @Test
    void h100HdrH100At700WattsAre44Point8Kilowatts() {
        Calculation c = h100HdrPower(1, 230).calculate();
        assertThat(c.result("gpu_power")).isCloseTo(44.8, within(1e-9));
        assertThat(c.result("node_power")).isEqualTo(5600);
        // the H100 write-up: "~55 kW total facility power (45 kW compute + 10 kW cooling/aux)" at PUE 1.2-1.4
        assertThat(c.result("facility_power")).isCloseTo(53.76, within(1e-9));
        assertThat(c.text()).contains("gpu_power            44.8 kW");
    }

    @Test
    void h100HdrPsusAndTwoNodesPerBreakerDoNotHold() {
        Calculation single = h100HdrPower(1, 230).calculate();
        assertThat(single.result("psu_usable_per_node")).isEqualTo(2000);
        assertThat(single.notes()).anyMatch(n -> n.contains("less than the node's 5600 W"));
        // 32 A x 230 V x 0.8 = 5888 W: one 5.6 kW node per single-phase breaker, not the write-up's two
        assertThat(single.result("breaker_usable")).isCloseTo(5888, within(1e-9));
        assertThat(single.result("nodes_per_breaker")).isEqualTo(1);
        assertThat(single.result("breakers")).isEqualTo(8);
        Calculation three = h100HdrPower(3, 400).calculate();
        assertThat(three.result("nodes_per_breaker")).isEqualTo(3);
        assertThat(three.result("breakers")).isEqualTo(3);
    }

    @Test
    void aNodeLargerThanABreakerSaysSo() {
        Calculation c = new PowerPlan(1, 8, 700, 2000, 0, 2, 1, 16, 230, 1, 0.8, 1.3).calculate();
        assertThat(c.results()).noneMatch(q -> q.name().equals("breakers"));
        assertThat(c.notes()).anyMatch(n -> n.contains("exceeds one 16 A breaker"));
    }

    private static AllreducePlan h100HdrAllreduce(Optional<Double> measured) {
        return new AllreducePlan(64, 8, 100e6, Fabric.IB_HDR, 1, Optional.empty(), Optional.empty(), measured,
                Optional.of(7e9), 2, Optional.of(1.0));
    }

    @Test
    void oneHdrHcaPerNodeBoundsBusbwAt25GBytesAsTheH100WriteUpsAllReduceExampleShows() {
        Calculation c = h100HdrAllreduce(Optional.empty()).calculate();
        assertThat(c.result("bus_bandwidth_bound")).isEqualTo(25);
        // 2 * 63/64 * 100 MB / 25 GB/s = 7.875 ms, plus 2 * 63 steps * 3 us for the ring
        assertThat(c.result("ring_time")).isCloseTo(7.875 + 0.378, within(1e-9));
        assertThat(c.result("tree_time")).isCloseTo(7.875 + 0.036, within(1e-9));
        assertThat(c.result("ring_busbw")).isLessThan(25).isGreaterThan(15); // the write-up's "<15 GB/s" trouble line
        assertThat(c.result("gradient_bytes")).isCloseTo(14, within(1e-9));
        assertThat(c.notes().getFirst()).startsWith("no measured busbw given");
    }

    @Test
    void aMeasuredBusbwReplacesTheModelAndSaysSo() {
        Calculation c = h100HdrAllreduce(Optional.of(12.0)).calculate();
        assertThat(c.result("bus_bandwidth_bound")).isEqualTo(12);
        assertThat(c.notes().getFirst()).isEqualTo("bandwidth from the measured busbw 12 GB/s, not the model's 25 GB/s");
    }

    @Test
    void withinOneNodeNvlinkIsTheBound() {
        Calculation c = new AllreducePlan(8, 8, 1 << 30, Fabric.NVLINK_H100, 1, Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), 2, Optional.empty()).calculate();
        assertThat(c.result("nodes")).isEqualTo(1);
        assertThat(c.result("bus_bandwidth_bound")).isEqualTo(450);
    }

    @Test
    void h100HdrStorageArithmeticIs800MBytesPerNodeAnd6Point4GBytesForEight() {
        Calculation c = new StoragePlan(8, Optional.of(4e6), 8, 4096, 8, 2, 2, 100, Optional.empty()).calculate();
        assertThat(c.result("need_per_node")).isCloseTo(800, within(1e-9));
        assertThat(c.result("need_all_nodes")).isCloseTo(6.4, within(1e-9));
        // the write-up's own product, 8 x 4096 x 8 x 2 bytes, is 0.52 MB, not 4 MB
        assertThat(c.notes()).anyMatch(n -> n.contains("= 0.5243 MB (the 8 x H100 sizing calls this 4 MB)"));
    }

    @Test
    void storageAgainstAMeasuredBench() {
        Calculation c = new StoragePlan(8, Optional.empty(), 8, 4096, 8, 2, 1, 100, Optional.of(2100.0)).calculate();
        assertThat(c.result("need_per_node")).isCloseTo(52.4288, within(1e-9));
        assertThat(c.result("headroom")).isGreaterThan(40);
        assertThat(c.notes()).contains("the measured storage keeps up");
    }

    @Test
    void railsFromBackToBackToTwoTiers() {
        Calculation s1 = new RailsPlan(2, 2, 36).calculate(); // the V100 homelab: two ports cabled back to back
        assertThat(s1.result("switches")).isZero();
        assertThat(s1.result("cables")).isEqualTo(2);
        Calculation s4 = new RailsPlan(8, 1, 36).calculate(); // the H100 HDR cluster's procurement: 1 x 36-port switch, 8 cables
        assertThat(s4.result("switches")).isEqualTo(1);
        assertThat(s4.result("cables")).isEqualTo(8);
        Calculation pod = new RailsPlan(32, 8, 40).calculate(); // the homelab write-up's pod: "8 rail switches"
        assertThat(pod.result("switches")).isEqualTo(8);
        Calculation big = new RailsPlan(128, 8, 64).calculate();
        assertThat(big.result("leaf_switches")).isEqualTo(32);
        assertThat(big.result("spine_switches")).isEqualTo(16);
        assertThat(big.result("cables")).isEqualTo(2048);
    }

    @Test
    void numbersPrintWithoutNoise() {
        assertThat(Calculation.number(44.8)).isEqualTo("44.8");
        assertThat(Calculation.number(5888.0)).isEqualTo("5888");
        assertThat(Calculation.number(0.52428)).isEqualTo("0.5243");
    }
}
