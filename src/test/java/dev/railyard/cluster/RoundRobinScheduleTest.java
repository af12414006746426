package dev.railyard.cluster;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RoundRobinScheduleTest {

    private static List<String> nodes(int n) {
        return IntStream.range(0, n).mapToObj(i -> "n" + i).toList();
    }

    /** Every property the pair stage relies on, for one n. */
    private static void assertRoundRobin(int n) {
        RoundRobinSchedule s = RoundRobinSchedule.of(nodes(n));
        assertThat(s.rounds()).as("rounds for n=%d", n).hasSize(n % 2 == 0 ? n - 1 : n);
        Set<Set<String>> seen = new HashSet<>();
        for (List<RoundRobinSchedule.Pair> round : s.rounds()) {
            Set<String> busy = new HashSet<>();
            for (RoundRobinSchedule.Pair p : round) {
                assertThat(busy.add(p.first())).as("n=%d: %s twice in one round", n, p.first()).isTrue();
                assertThat(busy.add(p.second())).as("n=%d: %s twice in one round", n, p.second()).isTrue();
                assertThat(seen.add(Set.of(p.first(), p.second()))).as("n=%d: pair %s twice", n, p).isTrue();
            }
            // every node plays each round, but for the one on the bye when n is odd
            assertThat(busy).hasSize(n % 2 == 0 ? n : n - 1);
        }
        assertThat(seen).as("every pair of n=%d exactly once", n).hasSize(n * (n - 1) / 2);
        assertThat(s.pairCount()).isEqualTo(n * (n - 1) / 2);
    }

    @Test
    void everyPairOnceInDisjointRoundsForEveryClusterSizeUpTo64() {
        for (int n = 2; n <= 64; n++) assertRoundRobin(n);
    }

    @Test
    void largeClustersToo() {
        assertRoundRobin(511);
        assertRoundRobin(512);
    }

    @Test
    void fourNodesHaveThreeRoundsOfTwoPairs() {
        RoundRobinSchedule s = RoundRobinSchedule.of(List.of("a", "b", "c", "d"));
        assertThat(s.rounds()).hasSize(3).allSatisfy(r -> assertThat(r).hasSize(2));
    }

    @Test
    void threeNodesRestOneEachRound() {
        RoundRobinSchedule s = RoundRobinSchedule.of(List.of("a", "b", "c"));
        assertThat(s.rounds()).hasSize(3).allSatisfy(r -> assertThat(r).hasSize(1));
    }

    @Test
    void theClientIsTheEarlierNodeOfTheInput() {
        RoundRobinSchedule s = RoundRobinSchedule.of(List.of("z", "a"));
        assertThat(s.rounds()).containsExactly(List.of(new RoundRobinSchedule.Pair("z", "a")));
    }

    @Test
    void fewerThanTwoNodesHaveNoRoundsAndDuplicatesAreRefused() {
        assertThat(RoundRobinSchedule.of(List.of()).rounds()).isEmpty();
        assertThat(RoundRobinSchedule.of(List.of("a")).rounds()).isEmpty();
        assertThatThrownBy(() -> RoundRobinSchedule.of(List.of("a", "a"))).isInstanceOf(IllegalArgumentException.class);
    }
}
