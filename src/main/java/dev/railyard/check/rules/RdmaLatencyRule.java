package dev.railyard.check.rules;

import dev.railyard.check.Fix;
import dev.railyard.model.CheckId;
import dev.railyard.model.Severity;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * bench.rdma.lat, the one rule: perftest's headline latency (t_typical, else t_avg) at the smallest message size
 * against expect.rdma_latency_us. `bench rdma`, validate's RDMA latency pairs and diagnose's pasted ib_*_lat all
 * judge through here.
 */
public final class RdmaLatencyRule implements Rule {

    public static final CheckId ID = CheckId.BENCH_RDMA_LAT;

    RdmaLatencyRule() {
    }

    @Override
    public CheckId id() {
        return ID;
    }

    @Override
    public String reads() {
        return "perftest latency (t_typical, else t_avg) at the smallest size; validate: each RDMA pair's latency";
    }

    @Override
    public String thresholds() {
        return "expect.rdma_latency_us (default 2.0)";
    }

    @Override
    public String severities() {
        return "above: FAIL; a failed run: FAIL with perftest's reason; no latency table: UNKNOWN";
    }

    @Override
    public String fix() {
        return "the CPU governor, the ports' rates, NUMA placement; extra switch hops or PFC pauses";
    }

    public static String expected(double ceilingUs) {
        return "<= " + RdmaBandwidthRule.fmt(ceilingUs) + " µs";
    }

    /** A latency against the ceiling; the verdict is shared, the path puts the number in front. */
    public static Verdict judge(double us, double ceilingUs) {
        Severity s = us <= ceilingUs ? Severity.PASS : Severity.FAIL;
        return VERDICTS.computeIfAbsent(new Outcome(s, ceilingUs), o -> new Verdict(ID, o.severity(), "",
                expected(o.ceilingUs()), o.severity() == Severity.FAIL ? SLOW : ""));
    }

    private record Outcome(Severity severity, double ceilingUs) {}

    private static final Map<Outcome, Verdict> VERDICTS = new ConcurrentHashMap<>();

    private static final String SLOW = Fix.lines(Fix.GOVERNOR_NOW, Fix.RDMA_RATES,
            Fix.note("then rerun under numactl --cpunodebind=N, N the HCA's node above; a path with extra switch hops "
                    + "or PFC pauses adds latency too"));
}
