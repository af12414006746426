package dev.railyard.check;

import dev.railyard.check.rules.GpuTemperatureRule;
import dev.railyard.check.rules.NcclBusbwRule;
import dev.railyard.check.rules.RdmaBandwidthRule;
import dev.railyard.check.rules.RdmaLatencyRule;
import dev.railyard.model.CheckId;
import dev.railyard.model.NcclNet;
import dev.railyard.model.NcclTestsResult;
import dev.railyard.model.NcclTestsRow;
import dev.railyard.model.NcclTestsRun;
import dev.railyard.model.BwRow;
import dev.railyard.model.LatencyRow;
import dev.railyard.model.PerftestFailure;
import dev.railyard.model.PerftestResult;
import dev.railyard.model.Finding;
import dev.railyard.model.Severity;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** Turns parsed benchmark results into the bench.* findings (CheckId). Pure: no I/O. */
public final class BenchVerdicts {

    public static final String RDMA_BW = CheckId.BENCH_RDMA_BW.id();
    public static final String RDMA_LAT = CheckId.BENCH_RDMA_LAT.id();
    public static final String NCCL_BUSBW = CheckId.BENCH_NCCL_BUSBW.id();


    private BenchVerdicts() {}

    /**
     * Average bandwidth at the largest message size against the link's data rate; a run that failed is judged by
     * its first failure instead.
     */
    public static Finding rdmaBandwidth(String subject, PerftestResult r, double linkGbps, double efficiency) {
        String expected = expectedBw(linkGbps, efficiency);
        return failure(RDMA_BW, subject, r, expected).orElseGet(() -> rdmaBandwidthTable(subject, r, linkGbps,
                efficiency));
    }

    /**
     * The bandwidth table alone (diagnose reports a run's failures as findings of their own). A bidirectional run
     * reports both directions added up, so it is judged against twice the rate. A result that sits near the full
     * rate of a lower standard speed says the link trained down (the seeds' ~1139 MB/s on 40G: a bad cable).
     */
    public static Finding rdmaBandwidthTable(String subject, PerftestResult r, double linkGbps, double efficiency) {
        String expected = expectedBw(linkGbps, efficiency);
        Optional<BwRow> row = r.largestBandwidthRow();
        if (row.isEmpty()) return noBandwidthTable(subject, expected);
        boolean bidir = bidirectional(r);
        double capacity = linkGbps * (bidir ? 2 : 1);
        String observed = String.format(Locale.ROOT, "%s = %.1f%% of %s Gb/s%s", measured(row.get()),
                row.get().averageGbps() / capacity * 100, fmt(capacity), bidir ? " (bidirectional)" : "");
        return RdmaBandwidthRule.judge(row.get().averageGbps(), bidir, linkGbps, efficiency).measured(observed)
                .on(subject);
    }

    /**
     * The bandwidth table when nobody said how fast the link is: the number, never a guessed verdict (1139 MB/s is
     * a fine 10G port and a broken 40G one). Suggests the standard rate just above the result for --rate.
     */
    public static Finding rdmaBandwidthUnrated(String subject, PerftestResult r, double efficiency) {
        Optional<BwRow> row = r.largestBandwidthRow();
        if (row.isEmpty()) return noBandwidthTable(subject, "a link rate to judge against");
        double perDirection = row.get().averageGbps() / (bidirectional(r) ? 2 : 1);
        double guess = perDirection;
        for (int i = RdmaBandwidthRule.RATES.length - 1; i >= 0 && RdmaBandwidthRule.RATES[i] >= perDirection; i--) {
            guess = RdmaBandwidthRule.RATES[i];
        }
        Optional<Double> full = RdmaBandwidthRule.negotiatedBelow(perDirection, Double.MAX_VALUE);
        return new Finding(RDMA_BW, Severity.UNKNOWN, subject, measured(row.get())
                + (bidirectional(r) ? " (bidirectional)" : "")
                + full.map(rate -> "; about what a full " + fmt(rate) + "G link gives").orElse(""),
                String.format(Locale.ROOT, ">= %.0f%% of the link rate", efficiency * 100),
                Fix.lines(Fix.note("link rate unknown: pass --rate " + fmt(guess) + " if this is a " + fmt(guess)
                        + "G port" + full.map(rate -> "; on a port faster than " + fmt(rate) + "G this means it "
                        + "negotiated " + fmt(rate) + "G: replace the QSFP+ cable/DAC").orElse("") + "; the ports' "
                        + "rates:"), Fix.RDMA_RATES));
    }

    private static String expectedBw(double linkGbps, double efficiency) {
        return RdmaBandwidthRule.expected(linkGbps, efficiency);
    }

    private static Finding noBandwidthTable(String subject, String expected) {
        return new Finding(RDMA_BW, Severity.UNKNOWN, subject, "no bandwidth table in the output", expected,
                Fix.note("run ib_write_bw again and keep its whole output"));
    }

    private static boolean bidirectional(PerftestResult r) {
        return r.header().map(h -> h.bidirectional()).orElse(false);
    }

    private static String measured(BwRow row) {
        return String.format(Locale.ROOT, "%s %s = %.1f Gb/s at %d B", fmt(row.average()), row.unit().label(),
                row.averageGbps(), row.bytes());
    }

    /** The headline latency (t_typical, else t_avg) of the smallest message size against the spec. */
    public static Finding rdmaLatency(String subject, PerftestResult r, double specUs) {
        return failure(RDMA_LAT, subject, r, RdmaLatencyRule.expected(specUs))
                .orElseGet(() -> rdmaLatencyTable(subject, r, specUs));
    }

    /** The latency table alone, for diagnose, which reports a run's failures as findings of their own. */
    public static Finding rdmaLatencyTable(String subject, PerftestResult r, double specUs) {
        String expected = RdmaLatencyRule.expected(specUs);
        Optional<LatencyRow> row = r.smallestLatencyRow();
        if (row.isEmpty() || row.get().headlineUs().isEmpty()) {
            return new Finding(RDMA_LAT, Severity.UNKNOWN, subject, "no latency table in the output", expected,
                    Fix.note("run ib_write_lat again and keep its whole output"));
        }
        double us = row.get().headlineUs().getAsDouble();
        return RdmaLatencyRule.judge(us, specUs).measured(fmt(us) + " µs at " + row.get().bytes() + " B").on(subject);
    }

    private static Optional<Finding> failure(String id, String subject, PerftestResult r, String expected) {
        if (!r.failed()) return Optional.empty();
        PerftestFailure f = r.failures().stream()
                .filter(x -> x.kind() != PerftestFailure.Kind.RUN_FAILED).findFirst()
                .orElse(r.failures().getFirst());
        return Optional.of(new Finding(id, Severity.FAIL, subject,
                "perftest failed at line " + f.lineNumber() + ": " + f.kind().meaning() + " (" + f.detail() + ")",
                expected, f.fix()));
    }

    /**
     * One finding per concern for every run in the output: busbw at the largest size, data errors, and the transport
     * NCCL chose, each as {@link NcclBusbwRule} judges it.
     */
    public static List<Finding> ncclBusbw(String subject, NcclTestsResult r, Optional<Double> expectedGBps,
                                          boolean fabricExpected) {
        List<Finding> out = new ArrayList<>();
        List<NcclTestsRun> runs = r.runs();
        for (int i = 0; i < runs.size(); i++) {
            String s = runs.size() == 1 ? subject : subject + " run " + (i + 1);
            out.add(ncclRunBusbw(s, runs.get(i), expectedGBps, fabricExpected));
            ncclWrong(s, runs.get(i)).ifPresent(out::add);
        }
        ncclTransport(subject, r.net(), fabricExpected).ifPresent(out::add);
        if (runs.isEmpty() && out.isEmpty()) {
            out.add(NcclBusbwRule.unread("no result table in the output",
                    expectedGBps.map(e -> ">= " + fmt(e) + " GB/s busbw").orElse("a result table"),
                    Fix.note("run the nccl-tests binary again and keep its whole output")).on(subject));
        }
        return out;
    }

    /** Data errors: #wrong > 0 in any row, or nccl-tests' "Out of bounds values : N FAILED". */
    public static Optional<Finding> ncclWrong(String s, NcclTestsRun run) {
        return NcclBusbwRule.wrong(run.totalWrong(), run.outOfBoundsOk().map(ok -> !ok).orElse(false)).map(v -> v.on(s));
    }

    /**
     * busbw (out of place) at the largest size of one run against the spec; INFO when the spec sets none. The rank
     * lines' hosts say whether the run crossed nodes; without them, whether the fabric was expected does.
     */
    public static Finding ncclRunBusbw(String s, NcclTestsRun run, Optional<Double> expectedGBps,
                                       boolean fabricExpected) {
        Optional<NcclTestsRow> big = run.largest();
        if (big.isEmpty()) {
            return NcclBusbwRule.unread("the table has no rows", NcclBusbwRule.expected(expectedGBps), "").on(s);
        }
        double busbw = big.get().outOfPlace().busbwGBps();
        String observed = fmt(busbw) + " GB/s busbw at " + big.get().sizeBytes() + " B";
        return NcclBusbwRule.busbw(observed, busbw, true, expectedGBps, span(run, fabricExpected)).on(s);
    }

    static NcclBusbwRule.Span span(NcclTestsRun run, boolean fabricExpected) {
        long hosts = run.devices().stream().map(d -> d.host()).distinct().count();
        if (hosts == 0) return fabricExpected ? NcclBusbwRule.Span.NODES : NcclBusbwRule.Span.ONE_NODE;
        return hosts == 1 ? NcclBusbwRule.Span.ONE_NODE : NcclBusbwRule.Span.NODES;
    }

    /** NET/Socket where the fabric (IB/RoCE) was expected, with the reason NCCL's own lines give for it. */
    public static Optional<Finding> ncclTransport(String subject, NcclNet net, boolean fabricExpected) {
        return NcclBusbwRule.transport(net, fabricExpected).map(v -> v.on(subject));
    }

    private static String fmt(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.format(Locale.ROOT, "%.2f", v);
    }
}
