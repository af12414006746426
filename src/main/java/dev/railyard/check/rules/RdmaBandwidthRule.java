package dev.railyard.check.rules;

import dev.railyard.check.Fix;
import dev.railyard.model.CheckId;
import dev.railyard.model.Severity;

import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * bench.rdma.bw, the one rule: a measured bandwidth against efficiency x the link's data rate. A bidirectional run
 * reports both directions added up, so it is held to twice the rate. A result that sits at 80-100 % of a lower
 * standard rate says the link trained down (~1139 MB/s on a 40G port: a link that negotiated 10G, a bad cable).
 * `bench rdma`, diagnose's pasted ib_write_bw, validate's pairs and its culprits all judge through here.
 */
public final class RdmaBandwidthRule implements Rule {

    public static final CheckId ID = CheckId.BENCH_RDMA_BW;

    /** Standard Ethernet / InfiniBand data rates, in Gb/s. */
    public static final double[] RATES = {1, 10, 25, 40, 50, 56, 100, 200, 400, 800};
    /** The rates a link of each rate trains down to (a 40G QSFP+ link falls to one 10G lane, never to 25G). */
    private static final Map<Double, double[]> TRAINS_DOWN_TO = Map.of(
            10.0, new double[]{1}, 25.0, new double[]{10}, 40.0, new double[]{10}, 50.0, new double[]{25, 10},
            56.0, new double[]{40, 10}, 100.0, new double[]{50, 40, 25, 10}, 200.0, new double[]{100, 50},
            400.0, new double[]{200, 100}, 800.0, new double[]{400, 200});

    /** Where the network has no rate, validate holds a pair to this share of its network's median. */
    public static final double FLEET_FRACTION = 0.5;

    RdmaBandwidthRule() {
    }

    @Override
    public CheckId id() {
        return ID;
    }

    @Override
    public String reads() {
        return "a perftest/OSU/UCX bandwidth (one direction, or both added up), the link's rate (spec network rate, "
                + "else the port's rate), the efficiency";
    }

    @Override
    public String thresholds() {
        return "efficiency x rate, expect.rdma_bw_efficiency (default 0.90); twice that for a bidirectional test; "
                + "validate on a network without rate_gbps: " + FLEET_FRACTION + " x the network's median";
    }

    @Override
    public String severities() {
        return "below the floor: FAIL, naming the lower rate it matches (80-100 % of a rate the link trains down to)";
    }

    @Override
    public String fix() {
        return "trained down: replace the cable, then read the ports' rates; else the CPU governor, the ports' rates, "
                + "the PCIe link, and NUMA placement";
    }

    /** The floor one direction must reach, in Gb/s. */
    public static double floorGbps(double linkGbps, double efficiency) {
        return efficiency * linkGbps;
    }

    public static String expected(double linkGbps, double efficiency) {
        return String.format(Locale.ROOT, ">= %.0f%% of %s Gb/s", efficiency * 100, fmt(linkGbps));
    }

    /**
     * A measurement against its floor. The verdict's observed text is what the rule adds (empty, or the lower rate
     * the result matches); the path puts its own account of the number in front ({@link Verdict#measured}). Verdicts
     * are shared, not made per measurement: validate judges every pair test of a run at once, and 512 hosts with a
     * slow rail give 130,000 FAILs, each of which would otherwise carry its own copy of the fix text.
     */
    public static Verdict judge(double measuredGbps, boolean bidirectional, double linkGbps, double efficiency) {
        double capacity = linkGbps * (bidirectional ? 2 : 1);
        Optional<Double> lower = measuredGbps / capacity >= efficiency ? Optional.empty()
                : negotiatedBelow(measuredGbps / (bidirectional ? 2 : 1), linkGbps);
        Severity severity = measuredGbps / capacity >= efficiency ? Severity.PASS : Severity.FAIL;
        return VERDICTS.computeIfAbsent(new Outcome(severity, lower, linkGbps, efficiency), RdmaBandwidthRule::verdict);
    }

    /** validate's pair on a network without a rate, against its share of the fleet's median; shared as above. */
    public static Verdict belowFleet(double measuredGbps, double floorGbps) {
        Severity severity = measuredGbps >= floorGbps ? Severity.PASS : Severity.FAIL;
        return FLEET.computeIfAbsent(new FleetOutcome(severity, floorGbps), o -> new Verdict(ID, o.severity(), "",
                ">= " + fmt(o.floorGbps()) + " Gb/s", o.severity() == Severity.FAIL ? SLOW : ""));
    }

    /** What decides a verdict's text: the severity, the lower rate matched, and the floor it was held to. */
    private record Outcome(Severity severity, Optional<Double> lower, double linkGbps, double efficiency) {}

    private record FleetOutcome(Severity severity, double floorGbps) {}

    private static final Map<Outcome, Verdict> VERDICTS = new java.util.concurrent.ConcurrentHashMap<>();
    private static final Map<FleetOutcome, Verdict> FLEET = new java.util.concurrent.ConcurrentHashMap<>();

    private static Verdict verdict(Outcome o) {
        String expected = expected(o.linkGbps(), o.efficiency());
        if (o.severity() == Severity.PASS) return new Verdict(ID, Severity.PASS, "", expected, "");
        if (o.lower().isEmpty()) return new Verdict(ID, Severity.FAIL, "", expected, SLOW);
        String rate = fmt(o.lower().get());
        return new Verdict(ID, Severity.FAIL, "matches a link negotiated at " + rate + "G", expected,
                Fix.lines(Fix.note("negotiated " + rate + "G: replace the QSFP+ cable/DAC with a known-good one, "
                        + "then look at the ports' rates again:"), Fix.RDMA_RATES));
    }

    private static final String SLOW = Fix.lines(Fix.GOVERNOR_NOW, Fix.RDMA_RATES,
            "lspci -vv -d 15b3: | grep -E 'LnkCap:|LnkSta:'",
            Fix.note("then rerun both sides under numactl --cpunodebind=N, N the HCA's node above"));

    /**
     * The rate a link of {@code linkGbps} trains down to that this one-direction bandwidth is 80-100 % of: what a
     * link trained at it gives. A rate this rule does not know is compared with every lower standard rate.
     */
    public static Optional<Double> negotiatedBelow(double gbps, double linkGbps) {
        double[] lower = TRAINS_DOWN_TO.get(linkGbps);
        if (lower == null) lower = Arrays.stream(RATES).filter(r -> r < linkGbps).toArray();
        return Arrays.stream(lower).filter(r -> gbps <= r && gbps >= r * 0.8).boxed()
                .max(Double::compare);
    }

    /** The rates a link of this rate falls to when it trains down, highest first (empty for a rate not known). */
    public static java.util.List<Double> trainsDownTo(double linkGbps) {
        return Arrays.stream(TRAINS_DOWN_TO.getOrDefault(linkGbps, new double[0])).boxed().toList();
    }

    static String fmt(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.format(Locale.ROOT, "%.2f", v);
    }
}
