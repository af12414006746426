package dev.railyard.cluster;

import dev.railyard.check.Fix;
import dev.railyard.check.rules.RdmaBandwidthRule;
import dev.railyard.check.rules.RdmaLatencyRule;
import dev.railyard.check.rules.TcpBandwidthRule;
import dev.railyard.check.rules.TcpLatencyRule;
import dev.railyard.check.rules.Verdict;
import dev.railyard.model.ClusterSpec;
import dev.railyard.model.Finding;
import dev.railyard.model.PairKind;
import dev.railyard.model.PairOutcome;
import dev.railyard.model.PairResult;
import dev.railyard.model.Severity;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Judges pair results against their bar, each through its ID's rule. RDMA bandwidth has an absolute one
 * (expect.rdma_bw_efficiency x the network's rate_gbps, a data rate) and RDMA latency expect.rdma_latency_us. TCP
 * is held to the spec's expect.tcp_gbps and expect.tcp_latency_us where given, as `bench tcp` is, and to the fleet
 * (TCP on a 40G RoCE link reaches about 27 Gb/s: the kernel's copies, not the link, set it): bandwidth below half
 * the median of that network's pairs, latency above k x the median. The bars come from first attempts only, so a
 * retest is held to the same bar. Pure.
 */
public final class PairJudge {

    /** Bad pairs listed one finding each per network and kind; the rest in one finding (the report has them all). */
    static final int FINDINGS_PER_GROUP = 100;
    /** A pair above k times its network's median latency is bad. */
    public static final double DEFAULT_LATENCY_K = TcpLatencyRule.DEFAULT_K;

    private final ClusterSpec spec;
    private final double latencyK;

    public PairJudge(ClusterSpec spec, double latencyK) {
        this.spec = spec;
        this.latencyK = latencyK;
    }

    /**
     * The bar of one network and kind, from the first attempts of its pairs; {@code linkGbps} and
     * {@code efficiency} where RDMA bandwidth is held to its rule (the network has a rate).
     */
    record Bar(OptionalDouble value, String basis, OptionalDouble linkGbps, double efficiency) {
        Bar(OptionalDouble value, String basis) {
            this(value, basis, OptionalDouble.empty(), 0);
        }
    }

    /** Which bar a result is held to: its network and kind. */
    record BarKey(String network, PairKind kind) {
        static BarKey of(PairResult r) {
            return new BarKey(r.test().network(), r.test().kind());
        }
    }

    /** One pair test across attempts: the unordered pair on a network, of one kind. */
    private record TestKey(String network, String a, String b, PairKind kind) {
        static TestKey of(PairResult r) {
            String c = r.test().client();
            String s = r.test().server();
            return c.compareTo(s) <= 0 ? new TestKey(r.test().network(), c, s, r.test().kind())
                    : new TestKey(r.test().network(), s, c, r.test().kind());
        }
    }

    Map<BarKey, Bar> bars(List<PairResult> results) {
        // only a bar with nothing absolute to go by needs the fleet's first attempts (RDMA bandwidth on a network with
        // a rate and RDMA latency have theirs): no boxed copy of every RDMA figure of a 512-host run is made
        Map<BarKey, List<Double>> firsts = new LinkedHashMap<>();
        for (PairResult r : results) {
            if (r.attempt() == 1 && r.outcome() instanceof PairOutcome.Measured(double v) && fromFleet(r)) {
                firsts.computeIfAbsent(key(r), k -> new ArrayList<>()).add(v);
            }
        }
        Map<BarKey, Bar> bars = new LinkedHashMap<>();
        for (PairResult r : results) {
            bars.computeIfAbsent(key(r), k -> bar(r, firsts.getOrDefault(k, List.of())));
        }
        return bars;
    }

    private boolean fromFleet(PairResult r) {
        PairKind kind = r.test().kind();
        if (kind == PairKind.RDMA_LATENCY) return false;
        return kind != PairKind.RDMA_BANDWIDTH
                || spec.network(r.test().network()).flatMap(ClusterSpec.Network::rateGbps).isEmpty();
    }

    private Bar bar(PairResult r, List<Double> firsts) {
        PairKind kind = r.test().kind();
        Optional<Double> rate = spec.network(r.test().network()).flatMap(ClusterSpec.Network::rateGbps);
        double eff = spec.expect().rdmaBwEfficiency();
        if (kind == PairKind.RDMA_BANDWIDTH && rate.isPresent()) {
            return new Bar(OptionalDouble.of(RdmaBandwidthRule.floorGbps(rate.get(), eff)),
                    percent(eff) + " of " + rate(rate.get()) + " Gb/s", OptionalDouble.of(rate.get()), eff);
        }
        OptionalDouble median = firsts.isEmpty() ? OptionalDouble.empty() : OptionalDouble.of(median(firsts));
        String of = median.isEmpty() ? "no measured pair on " + r.test().network() + " to compare with"
                : "fleet median " + format(median.getAsDouble()) + " " + kind.unit() + " of " + firsts.size() + " pair"
                + (firsts.size() == 1 ? "" : "s") + (rate.isEmpty() && kind == PairKind.RDMA_BANDWIDTH
                ? "; no rate_gbps in the spec" : "");
        return switch (kind) {
            case TCP_BANDWIDTH -> {
                Optional<Double> floor = spec.expect().tcpGbps();
                yield new Bar(TcpBandwidthRule.floor(floor, median), TcpBandwidthRule.specHolds(floor, median)
                        ? "expect.tcp_gbps" : median.isEmpty() ? of : TcpBandwidthRule.FLEET_FRACTION + " x " + of);
            }
            case TCP_LATENCY -> {
                Optional<Double> ceiling = spec.expect().tcpLatencyUs();
                yield new Bar(TcpLatencyRule.ceiling(ceiling, median, latencyK), TcpLatencyRule.specHolds(ceiling,
                        median, latencyK) ? "expect.tcp_latency_us" : median.isEmpty() ? of : latencyK + " x " + of);
            }
            case RDMA_BANDWIDTH -> median.isEmpty() ? new Bar(OptionalDouble.empty(), of) : new Bar(OptionalDouble.of(
                    RdmaBandwidthRule.FLEET_FRACTION * median.getAsDouble()), RdmaBandwidthRule.FLEET_FRACTION + " x " + of);
            case RDMA_LATENCY -> new Bar(OptionalDouble.of(spec.expect().rdmaLatencyUs()), "expect.rdma_latency_us");
        };
    }

    /** The rule's verdict on a measured pair, where its ID has a rule for this bar. */
    private static Optional<Verdict> rule(PairKind kind, double v, Bar bar) {
        return switch (kind) {
            case RDMA_BANDWIDTH -> bar.linkGbps().isPresent()
                    ? Optional.of(RdmaBandwidthRule.judge(v, false, bar.linkGbps().getAsDouble(), bar.efficiency()))
                    : bar.value().isPresent() ? Optional.of(RdmaBandwidthRule.belowFleet(v, bar.value().getAsDouble()))
                    : Optional.empty();
            case RDMA_LATENCY -> bar.value().isPresent()
                    ? Optional.of(RdmaLatencyRule.judge(v, bar.value().getAsDouble())) : Optional.empty();
            case TCP_BANDWIDTH -> Optional.of(TcpBandwidthRule.judge(v, bar.value()));
            case TCP_LATENCY -> Optional.of(TcpLatencyRule.judge(v, bar.value()));
        };
    }

    PairJudgement judge(PairResult r, Map<BarKey, Bar> bars) {
        Bar bar = bars.getOrDefault(key(r), new Bar(OptionalDouble.empty(), "no bar"));
        if (r.outcome() instanceof PairOutcome.Measured(double v)) {
            Optional<Verdict> verdict = rule(r.test().kind(), v, bar);
            if (verdict.isPresent()) {
                return new PairJudgement(r, bar.value(), bar.basis(), verdict.get().severity() == Severity.FAIL, verdict);
            }
        }
        boolean bad = switch (r.outcome()) {
            case PairOutcome.Failed f -> true;
            case PairOutcome.NotRun n -> false;
            case PairOutcome.Measured(double v) -> bar.value().isPresent()
                    && (r.test().kind().higherIsBetter() ? v < bar.value().getAsDouble() : v > bar.value().getAsDouble());
        };
        return new PairJudgement(r, bar.value(), bar.basis(), bad);
    }

    /**
     * The latest attempt of every pair test, judged; a retest that was not run (an end lost meanwhile) leaves the
     * attempt that did run.
     */
    public List<PairJudgement> judgeLatest(List<PairResult> results) {
        List<PairJudgement> out = new ArrayList<>();
        eachLatest(results, out::add);
        return out;
    }

    /**
     * {@link #judgeLatest} one judgement at a time, in the order of each test's first result, holding none of them:
     * only tests that were tried more than once (the retests, a few hundred of 262,400 at 512 hosts) are looked up.
     */
    void eachLatest(List<PairResult> results, java.util.function.Consumer<PairJudgement> sink) {
        Map<BarKey, Bar> bars = bars(results);
        java.util.Set<TestKey> retried = new java.util.HashSet<>();
        for (PairResult r : results) {
            if (r.attempt() > 1) retried.add(TestKey.of(r));
        }
        Map<TestKey, PairResult> latest = new java.util.HashMap<>();
        if (!retried.isEmpty()) {
            for (PairResult r : results) {
                TestKey k = TestKey.of(r);
                if (retried.contains(k)) {
                    latest.merge(k, r, (a, b) -> ran(a) && !ran(b) ? a : ran(b) && !ran(a) ? b
                            : b.attempt() >= a.attempt() ? b : a);
                }
            }
        }
        java.util.Set<TestKey> done = new java.util.HashSet<>();
        for (PairResult r : results) {
            if (retried.isEmpty() || !retried.contains(TestKey.of(r))) {
                sink.accept(judge(r, bars));
            } else if (done.add(TestKey.of(r))) {
                sink.accept(judge(latest.get(TestKey.of(r)), bars));
            }
        }
    }

    private static boolean ran(PairResult r) {
        return !(r.outcome() instanceof PairOutcome.NotRun);
    }

    /**
     * One FAIL per bad pair, one summary PASS per network and kind whose pairs that ran are all good, and one UNKNOWN
     * per pair not run (an end lost), so nothing that was not tested reads as proven.
     */
    public static List<Finding> findings(List<PairJudgement> judged) {
        List<Finding> out = new ArrayList<>();
        Map<BarKey, List<PairJudgement>> groups = new LinkedHashMap<>();
        Map<BarKey, List<PairJudgement>> notRun = new LinkedHashMap<>();
        judged.forEach(j -> (j.notRun() ? notRun : groups).computeIfAbsent(BarKey.of(j.result()), k -> new ArrayList<>()).add(j));
        notRun.values().forEach(group -> out.addAll(notRunFindings(group)));
        for (List<PairJudgement> group : groups.values()) {
            PairJudgement first = group.getFirst();
            String id = first.kind().checkId();
            long bad = group.stream().filter(PairJudgement::bad).count();
            int listed = 0;
            for (PairJudgement j : group) {
                if (!j.bad()) continue;
                if (listed++ == FINDINGS_PER_GROUP) {
                    out.add(Finding.of(id, Severity.FAIL, first.test().network(), (bad - FINDINGS_PER_GROUP)
                                    + " more of " + group.size() + " pairs below expect", first.expected(),
                            Fix.lines(Fix.note("the pair matrix of this report has every pair, the culprit section what "
                                    + "they point at; on the nodes of the bad pairs, their ports and netdevs:"),
                                    CulpritFinder.portEvidence(first.kind().rdma()))));
                    break;
                }
                String retest = j.result().attempt() > 1 ? " (retested: attempt " + j.result().attempt() + ")" : "";
                String fix = j.rule().map(Verdict::fix).orElseGet(() -> Fix.lines(
                        Fix.note("the culprit section says what the bad pairs point at and what to do; on "
                                + j.test().client() + " and on " + j.test().server() + ", the ports and netdevs:"),
                        CulpritFinder.portEvidence(j.kind().rdma())));
                String note = j.rule().map(Verdict::observed).filter(n -> !n.isEmpty()).map(n -> "; " + n)
                        .orElse("");
                out.add(Finding.of(id, Severity.FAIL, j.test().subject(), j.observed() + note + retest, j.expected(), fix));
            }
            if (bad == 0) {
                double[] values = group.stream().map(PairJudgement::value).filter(OptionalDouble::isPresent)
                        .mapToDouble(OptionalDouble::getAsDouble).toArray();
                out.add(Finding.pass(id, first.test().network(), group.size() + " of " + group.size()
                        + " pairs within expect; median " + format(median(Arrays.stream(values).boxed().toList())) + " "
                        + first.kind().unit(), first.expected()));
            }
        }
        return out;
    }

    private static List<Finding> notRunFindings(List<PairJudgement> group) {
        List<Finding> out = new ArrayList<>();
        PairJudgement first = group.getFirst();
        for (int i = 0; i < group.size(); i++) {
            PairJudgement j = group.get(i);
            if (i == FINDINGS_PER_GROUP) {
                out.add(Finding.of(j.kind().checkId(), Severity.UNKNOWN, first.test().network(), (group.size() - i)
                        + " more pairs not run", "every pair tested", "the pair matrix of this report has every pair"));
                break;
            }
            out.add(Finding.of(j.kind().checkId(), Severity.UNKNOWN, j.test().subject(), j.observed(),
                    "a tested pair", "bring the lost node back and run validate again"));
        }
        return out;
    }

    static BarKey key(PairResult r) {
        return BarKey.of(r);
    }

    static double median(List<Double> values) {
        if (values.isEmpty()) return 0;
        double[] v = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int n = v.length;
        return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    }

    static String format(double v) {
        return v >= 100 ? String.format(Locale.ROOT, "%.0f", v) : v >= 10 ? String.format(Locale.ROOT, "%.1f", v)
                : String.format(Locale.ROOT, "%.2f", v);
    }

    /** A link rate as people write it: 40, 12.5. */
    static String rate(double gbps) {
        return gbps == Math.rint(gbps) ? String.valueOf((long) gbps) : format(gbps);
    }

    private static String percent(double eff) {
        return String.format(Locale.ROOT, "%.0f%%", eff * 100);
    }
}
