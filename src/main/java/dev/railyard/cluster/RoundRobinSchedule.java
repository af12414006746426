package dev.railyard.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * All pairs of n nodes in rounds of disjoint pairs (the circle method of round-robin tournaments): node 0 stays put,
 * the others rotate one place per round, and position i meets position n-1-i. n even gives n-1 rounds of n/2 pairs;
 * n odd adds a bye (whoever meets it rests that round) and gives n rounds. Every pair occurs exactly once, and in a
 * round no node is in two pairs, so every node runs one test at a time.
 */
public record RoundRobinSchedule(List<String> nodes, List<List<Pair>> rounds) {

    /** Two nodes of one round; {@code first} is the client (the earlier node in the input order), {@code second} the server. */
    public record Pair(String first, String second) {
        public Pair {
            Objects.requireNonNull(first);
            Objects.requireNonNull(second);
            if (first.equals(second)) throw new IllegalArgumentException("a pair needs two nodes: " + first);
        }
    }

    public RoundRobinSchedule {
        nodes = List.copyOf(nodes);
        rounds = rounds.stream().map(List::copyOf).toList();
    }

    public static RoundRobinSchedule of(List<String> nodes) {
        if (nodes.stream().distinct().count() != nodes.size()) throw new IllegalArgumentException("duplicate nodes: " + nodes);
        int n = nodes.size();
        if (n < 2) return new RoundRobinSchedule(nodes, List.of());
        int slots = n % 2 == 0 ? n : n + 1; // slot n (when odd) is the bye
        int[] ring = new int[slots];
        for (int i = 0; i < slots; i++) ring[i] = i;
        List<List<Pair>> rounds = new ArrayList<>(slots - 1);
        for (int r = 0; r < slots - 1; r++) {
            List<Pair> round = new ArrayList<>(slots / 2);
            for (int i = 0; i < slots / 2; i++) {
                int a = ring[i];
                int b = ring[slots - 1 - i];
                if (a >= n || b >= n) continue; // the bye
                int lo = Math.min(a, b);
                int hi = Math.max(a, b);
                round.add(new Pair(nodes.get(lo), nodes.get(hi)));
            }
            rounds.add(round);
            // rotate every slot but the first one place clockwise
            int last = ring[slots - 1];
            System.arraycopy(ring, 1, ring, 2, slots - 2);
            ring[1] = last;
        }
        return new RoundRobinSchedule(nodes, rounds);
    }

    public int pairCount() {
        return rounds.stream().mapToInt(List::size).sum();
    }
}
