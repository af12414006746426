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
 * bench.tcp.bw, the one rule: railyard's TCP bandwidth (what the server received, else what was sent) against
 * expect.tcp_gbps. validate also holds each pair to half the median of its network's pairs, since TCP on a fast
 * link is set by the kernel's copies rather than the link (about 27 Gb/s on 40G RoCE) and few specs give a floor;
 * where both apply the higher floor holds. `bench tcp` and validate's pairs judge through here.
 */
public final class TcpBandwidthRule implements Rule {

    public static final CheckId ID = CheckId.BENCH_TCP_BW;
    /** A pair under this share of its network's median bandwidth is bad (a quarter-rate link is well below). */
    public static final double FLEET_FRACTION = 0.5;
    public static final String NO_FLOOR = "no bandwidth expectation (expect.tcp_gbps in the spec, or --expect-gbps)";

    TcpBandwidthRule() {
    }

    @Override
    public CheckId id() {
        return ID;
    }

    @Override
    public String reads() {
        return "railyard's TCP bandwidth (received, else sent) and whether the run finished; validate: each pair's "
                + "first-attempt bandwidth and its network's median; diagnose: iperf2";
    }

    @Override
    public String thresholds() {
        return "expect.tcp_gbps (no default); validate: also " + FLEET_FRACTION + " x the network's median, the "
                + "higher floor holding";
    }

    @Override
    public String severities() {
        return "below the floor: FAIL; no floor: INFO; a run stopped early: UNKNOWN; diagnose's iperf2: no connection: "
                + "FAIL, the connection cut mid-test: WARN";
    }

    @Override
    public String fix() {
        return "more streams; on both ends the netdev's speed, MTU, errors and socket buffers";
    }

    /** The floor: the spec's, and half the fleet's median where validate measured one; the higher holds. */
    public static OptionalDouble floor(Optional<Double> spec, OptionalDouble fleetMedian) {
        OptionalDouble fleet = fleetMedian.isPresent() ? OptionalDouble.of(FLEET_FRACTION * fleetMedian.getAsDouble())
                : OptionalDouble.empty();
        if (spec.isEmpty()) return fleet;
        return OptionalDouble.of(fleet.isPresent() ? Math.max(spec.get(), fleet.getAsDouble()) : spec.get());
    }

    /** Whether the spec's floor is the one that holds (it is at least the fleet's). */
    public static boolean specHolds(Optional<Double> spec, OptionalDouble fleetMedian) {
        return spec.isPresent() && (fleetMedian.isEmpty() || spec.get() >= FLEET_FRACTION * fleetMedian.getAsDouble());
    }

    public static String expected(OptionalDouble floor) {
        return floor.isPresent() ? String.format(Locale.ROOT, ">= %.2f Gb/s", floor.getAsDouble()) : NO_FLOOR;
    }

    /**
     * A bandwidth against its floor. The verdict is shared by every measurement with the same outcome (validate
     * judges every pair at once); the path puts the number in front ({@link Verdict#measured}).
     */
    public static Verdict judge(double gbps, OptionalDouble floor) {
        Severity s = floor.isEmpty() ? Severity.INFO : gbps >= floor.getAsDouble() ? Severity.PASS : Severity.FAIL;
        return VERDICTS.computeIfAbsent(new Outcome(s, floor), o -> new Verdict(ID, o.severity(), "",
                expected(o.floor()), o.severity() == Severity.FAIL ? SLOW : ""));
    }

    /** A run that stopped before its duration: its number says nothing about the link. */
    public static Verdict stoppedEarly(String observed, OptionalDouble floor) {
        return new Verdict(ID, Severity.UNKNOWN, observed, expected(floor),
                Fix.note("the run stopped before its --duration was up: run the same command again"));
    }

    /** A client that could not connect: nothing was measured, and the path's fix says how to reach the server. */
    public static Verdict noConnection(String observed, String fix) {
        return new Verdict(ID, Severity.FAIL, observed, "a connection to the server", fix);
    }

    /** The other side closed the connection mid-test: the bandwidth printed after it covers only part of the run. */
    public static Verdict cutShort(String observed, String fix) {
        return new Verdict(ID, Severity.WARN, observed, "a run to its end", fix);
    }

    private record Outcome(Severity severity, OptionalDouble floor) {}

    private static final Map<Outcome, Verdict> VERDICTS = new ConcurrentHashMap<>();

    private static final String SLOW = Fix.lines(Fix.note("one stream rarely fills a fast link: try --streams 4; then "
                    + "on both ends the link speed (Mb/s), the MTU, the errors and the socket buffers:"), Fix.NET_SPEEDS,
            "ip -s -br link", "railyard check --only host.net");
}
