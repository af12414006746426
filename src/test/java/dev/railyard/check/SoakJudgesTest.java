package dev.railyard.check;

import dev.railyard.model.Finding;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** soak.busbw and soak.counters, table-driven on the figures and counters a soak could end with. */
class SoakJudgesTest {

    private record Case(String name, List<Double> values, int failed, Optional<Double> floor, List<String> expected) {}

    private static List<String> lines(List<Finding> f) {
        return f.stream().map(x -> x.severity() + " " + x.observed()).toList();
    }

    @Test
    void busbwMinAndMedianAgainstExpectAndTheSpread() {
        List<Case> cases = List.of(
                new Case("steady above expect", List.of(180.0, 182.0, 181.0), 0, Optional.of(170.0), List.of(
                        "PASS 3 of 3 repetitions: min 180.00, median 181.00, max 182.00 GB/s, spread 1.1 %")),
                new Case("one repetition dips below expect", List.of(180.0, 150.0, 181.0, 182.0), 0, Optional.of(170.0),
                        List.of("FAIL min 150.00 below 170.00 GB/s in 1 of 4 repetitions; 4 of 4 repetitions: min 150.00, "
                                        + "median 180.50, max 182.00 GB/s, spread 17.7 %",
                                "WARN spread 17.7 % between the slowest and the fastest repetition; 4 of 4 repetitions: "
                                        + "min 150.00, median 180.50, max 182.00 GB/s, spread 17.7 %")),
                new Case("median below expect", List.of(150.0, 151.0, 190.0), 0, Optional.of(170.0), List.of(
                        "FAIL median 151.00 below 170.00 GB/s; 3 of 3 repetitions: min 150.00, median 151.00, max 190.00 GB/s, spread 26.5 %",
                        "WARN spread 26.5 % between the slowest and the fastest repetition; 3 of 3 repetitions: min 150.00, median 151.00, max 190.00 GB/s, spread 26.5 %")),
                new Case("no expect, steady", List.of(40.0, 41.0), 0, Optional.empty(), List.of(
                        "PASS 2 of 2 repetitions: min 40.00, median 40.50, max 41.00 GB/s, spread 2.5 %")),
                new Case("every repetition failed", List.of(), 2, Optional.of(170.0), List.of(
                        "FAIL none of 2 repetitions gave a result (rank 3: NCCL WARN NET/IB : Got completion with error 12)")),
                new Case("nothing ran", List.of(), 0, Optional.empty(), List.of("UNKNOWN no repetition ran")));
        for (Case c : cases) {
            var s = new SoakSpread.Series("all_reduce over 16 GPUs on 2 nodes", "GB/s", c.values(), c.failed(),
                    c.failed() > 0 ? List.of("rank 3: NCCL WARN NET/IB : Got completion with error 12") : List.of());
            assertThat(lines(SoakSpread.judge(s, c.floor()))).as(c.name()).isEqualTo(c.expected());
        }
    }

    private static SoakCounterGrowth.PortCounters port(long symbol, long downed) {
        return new SoakCounterGrowth.PortCounters("mlx5_0:1", Map.of("symbol_error", Reading.of(symbol),
                "link_downed", Reading.of(downed)));
    }

    @Test
    void countersThatGrowFailThoseClearedOrSaturatedAreUnknownAndUnchangedPass() {
        Duration w = Duration.ofHours(2);
        assertThat(lines(SoakCounterGrowth.judge("n1", w, List.of(port(0, 1)), Reading.of(List.of(port(0, 1))))))
                .containsExactly("PASS 2 error counters on 1 port unchanged during the 2h soak");
        assertThat(lines(SoakCounterGrowth.judge("n1", w, List.of(port(0, 1)), Reading.of(List.of(port(0, 3))))))
                .containsExactly("FAIL +2 during the 2h soak (1 -> 3)");
        assertThat(lines(SoakCounterGrowth.judge("n1", w, List.of(port(40, 1)), Reading.of(List.of(port(0, 1))))))
                .containsExactly("UNKNOWN went down during the 2h soak (40 -> 0): cleared while the soak ran, so growth cannot be told");
        assertThat(lines(SoakCounterGrowth.judge("n1", w, List.of(port(0, 255)), Reading.of(List.of(port(0, 255))))))
                .containsExactly("UNKNOWN stuck at its maximum 255: growth cannot be seen");
        var garbled = new SoakCounterGrowth.PortCounters("mlx5_0:1", Map.of("symbol_error",
                Reading.failed("sys/class/infiniband/mlx5_0/ports/1/counters/symbol_error", "EIO"), "link_downed", Reading.of(1L)));
        assertThat(lines(SoakCounterGrowth.judge("n1", w, List.of(port(0, 1)), Reading.of(List.of(garbled)))))
                .singleElement().satisfies(l -> assertThat(l).startsWith("UNKNOWN before: 0, after: ")
                        .contains("counters/symbol_error"));
        assertThat(lines(SoakCounterGrowth.judge("n1", w, List.of(port(0, 1)), Reading.absent("ssh: connection refused"))))
                .containsExactly("UNKNOWN counters not read after the soak: absent (ssh: connection refused)");
    }
}
