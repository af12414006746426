package dev.railyard.check.rules;

import dev.railyard.check.Fix;
import dev.railyard.model.CheckId;
import dev.railyard.model.Severity;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.ConcurrentHashMap;

/**
 * bench.tcp.lat, the one rule: railyard's TCP one-way latency (round trip / 2, as sockperf) against
 * expect.tcp_latency_us; validate also holds each pair to k x the median of its network's pairs, and where both apply
 * the lower ceiling holds. `bench tcp` and validate's pairs judge through here.
 */
public final class TcpLatencyRule implements Rule {

    public static final CheckId ID = CheckId.BENCH_TCP_LAT;
    /** A pair above k times its network's median latency is bad (validate's --latency-k). */
    public static final double DEFAULT_K = 1.5;
    public static final String NO_CEILING = "no latency expectation (expect.tcp_latency_us in the spec, or "
            + "--expect-latency-us)";

    TcpLatencyRule() {
    }

    @Override
    public CheckId id() {
        return ID;
    }

    @Override
    public String reads() {
        return "railyard's TCP one-way latency (average) and whether the run finished; validate: each pair's "
                + "first-attempt latency and its network's median";
    }

    @Override
    public String thresholds() {
        return "expect.tcp_latency_us (no default); validate: also --latency-k (default " + DEFAULT_K + ") x the "
                + "network's median, the lower ceiling holding";
    }

    @Override
    public String severities() {
        return "above the ceiling: FAIL; no ceiling: INFO; a run stopped early: UNKNOWN";
    }

    @Override
    public String fix() {
        return "the CPU governor, both ends under numactl on the NIC's node, the NIC's interrupt coalescing";
    }

    /** The ceiling: the spec's, and k x the fleet's median where validate measured one; the lower holds. */
    public static OptionalDouble ceiling(Optional<Double> spec, OptionalDouble fleetMedian, double k) {
        OptionalDouble fleet = fleetMedian.isPresent() ? OptionalDouble.of(k * fleetMedian.getAsDouble())
                : OptionalDouble.empty();
        if (spec.isEmpty()) return fleet;
        return OptionalDouble.of(fleet.isPresent() ? Math.min(spec.get(), fleet.getAsDouble()) : spec.get());
    }

    /** Whether the spec's ceiling is the one that holds (it is at most the fleet's). */
    public static boolean specHolds(Optional<Double> spec, OptionalDouble fleetMedian, double k) {
        return spec.isPresent() && (fleetMedian.isEmpty() || spec.get() <= k * fleetMedian.getAsDouble());
    }

    public static String expected(OptionalDouble ceiling) {
        return ceiling.isPresent() ? String.format(Locale.ROOT, "<= %.2f µs", ceiling.getAsDouble()) : NO_CEILING;
    }

    /** A one-way latency against its ceiling; the verdict is shared, the path puts the number in front. */
    public static Verdict judge(double us, OptionalDouble ceiling) {
        Severity s = ceiling.isEmpty() ? Severity.INFO : us <= ceiling.getAsDouble() ? Severity.PASS : Severity.FAIL;
        return VERDICTS.computeIfAbsent(new Outcome(s, ceiling), o -> new Verdict(ID, o.severity(), "",
                expected(o.ceiling()), o.severity() == Severity.FAIL ? SLOW : ""));
    }

    /** A run that stopped before its duration, or measured no round trip. */
    public static Verdict stoppedEarly(String observed, OptionalDouble ceiling) {
        return new Verdict(ID, Severity.UNKNOWN, observed, expected(ceiling),
                Fix.note("the run stopped before its --duration was up: run the same command again"));
    }

    private record Outcome(Severity severity, OptionalDouble ceiling) {}

    private static final Map<Outcome, Verdict> VERDICTS = new ConcurrentHashMap<>();

    private static final String SLOW = Fix.lines(Fix.GOVERNOR_NOW, "grep . /sys/class/net/*/device/numa_node",
            Fix.note("then run both ends under numactl --cpunodebind=N --membind=N, N the NIC's node above, and lower "
                    + "the NIC's interrupt coalescing (ethtool -C)"));
}
