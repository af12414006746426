package dev.railyard.check;

import dev.railyard.check.rules.GpuTemperatureRule;
import dev.railyard.check.rules.RdmaBandwidthRule;
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

    /** Data that did not verify: the GPUs' error reports first, then one pair at a time. */
    static final String CORRUPTED = Fix.lines(Fix.note("data came back corrupted: look for Xid and ECC errors, then "
            + "rerun on one GPU pair at a time (CUDA_VISIBLE_DEVICES=0,1 ...) to find the bad one"),
            "railyard check --only gpu.", "dmesg | grep -iE 'NVRM: Xid|ECC'");


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
        RdmaBandwidthRule.Verdict v = RdmaBandwidthRule.judge(row.get().averageGbps(), bidir, linkGbps, efficiency);
        return new Finding(RDMA_BW, v.severity(), subject, observed + (v.note().isEmpty() ? "" : "; " + v.note()),
                expected, v.fix());
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
        return failure(RDMA_LAT, subject, r, "<= " + fmt(specUs) + " µs")
                .orElseGet(() -> rdmaLatencyTable(subject, r, specUs));
    }

    /** The latency table alone, for diagnose, which reports a run's failures as findings of their own. */
    public static Finding rdmaLatencyTable(String subject, PerftestResult r, double specUs) {
        String expected = "<= " + fmt(specUs) + " µs";
        Optional<LatencyRow> row = r.smallestLatencyRow();
        if (row.isEmpty() || row.get().headlineUs().isEmpty()) {
            return new Finding(RDMA_LAT, Severity.UNKNOWN, subject, "no latency table in the output", expected,
                    Fix.note("run ib_write_lat again and keep its whole output"));
        }
        double us = row.get().headlineUs().getAsDouble();
        String observed = fmt(us) + " µs at " + row.get().bytes() + " B";
        if (us <= specUs) return Finding.pass(RDMA_LAT, subject, observed, expected);
        return new Finding(RDMA_LAT, Severity.FAIL, subject, observed, expected,
                Fix.lines(Fix.GOVERNOR_NOW, Fix.RDMA_RATES,
                        Fix.note("then rerun under numactl --cpunodebind=N, N the HCA's node above; a path with extra "
                                + "switch hops or PFC pauses adds latency too")));
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
     * One finding per concern for every run in the output: busbw at the largest size (not nccl-tests'
     * sweep average, which small sizes drag down), data errors, and the transport NCCL chose.
     */
    public static List<Finding> ncclBusbw(String subject, NcclTestsResult r, Optional<Double> expectedGBps,
                                          boolean fabricExpected) {
        List<Finding> out = new ArrayList<>();
        List<NcclTestsRun> runs = r.runs();
        for (int i = 0; i < runs.size(); i++) {
            String s = runs.size() == 1 ? subject : subject + " run " + (i + 1);
            out.add(ncclRunBusbw(s, runs.get(i), expectedGBps));
            ncclWrong(s, runs.get(i)).ifPresent(out::add);
        }
        ncclTransport(subject, r.net(), fabricExpected).ifPresent(out::add);
        if (runs.isEmpty() && out.isEmpty()) {
            out.add(new Finding(NCCL_BUSBW, Severity.UNKNOWN, subject, "no result table in the output",
                    expectedGBps.map(e -> ">= " + fmt(e) + " GB/s busbw").orElse("a result table"),
                    Fix.note("run the nccl-tests binary again and keep its whole output")));
        }
        return out;
    }

    /** Data errors: #wrong > 0 in any row, or nccl-tests' "Out of bounds values : N FAILED". */
    public static Optional<Finding> ncclWrong(String s, NcclTestsRun run) {
        long wrong = run.totalWrong();
        boolean oobFailed = run.outOfBoundsOk().map(ok -> !ok).orElse(false);
        if (wrong == 0 && !oobFailed) return Optional.empty();
        return Optional.of(new Finding(NCCL_BUSBW, Severity.FAIL, s,
                wrong + " wrong values" + (oobFailed ? ", out of bounds values FAILED" : ""),
                "#wrong = 0", CORRUPTED));
    }

    /** busbw (out of place) at the largest size of one run against the spec; INFO when the spec sets none. */
    public static Finding ncclRunBusbw(String s, NcclTestsRun run, Optional<Double> expectedGBps) {
        Optional<NcclTestsRow> big = run.largest();
        String expected = expectedGBps.map(e -> ">= " + fmt(e) + " GB/s busbw at the largest size")
                .orElse("no busbw expectation in the spec");
        if (big.isEmpty()) {
            return new Finding(NCCL_BUSBW, Severity.UNKNOWN, s, "the table has no rows", expected, "");
        }
        double busbw = big.get().outOfPlace().busbwGBps();
        String observed = fmt(busbw) + " GB/s busbw at " + big.get().sizeBytes() + " B";
        if (expectedGBps.isEmpty()) return new Finding(NCCL_BUSBW, Severity.INFO, s, observed, expected, "");
        if (busbw >= expectedGBps.get()) return Finding.pass(NCCL_BUSBW, s, observed, expected);
        return new Finding(NCCL_BUSBW, Severity.FAIL, s, observed, expected,
                Fix.lines(Fix.note("NCCL should use every HCA (NCCL_IB_HCA) with GPUDirect RDMA (nvidia-peermem); "
                        + "the ports, their rates and what NCCL was given:"), "rdma link show", Fix.RDMA_RATES,
                        "lsmod | grep -E 'nvidia_peermem|nv_peer_mem'", "printenv | grep '^NCCL_'"));
    }

    /** NET/Socket where the fabric (IB/RoCE) was expected, with the reason NCCL's own lines give for it. */
    public static Optional<Finding> ncclTransport(String subject, NcclNet net, boolean fabricExpected) {
        Optional<NcclNet.Transport> t = net.transport();
        if (!fabricExpected || t.isEmpty() || t.get() != NcclNet.Transport.SOCKET) return Optional.empty();
        String why = net.ibverbsMissing() ? " after \"Failed to open libibverbs.so\""
                : net.ibNoDevice() ? " after \"NET/IB : No device found.\"" : "";
        return Optional.of(new Finding(NCCL_BUSBW, Severity.FAIL, subject,
                "NCCL used NET/Socket" + (net.socketInterfaces().isEmpty() ? "" : " over "
                        + String.join(",", net.socketInterfaces())) + why,
                "NET/IB over the RDMA fabric",
                Fix.lines(Fix.note("NCCL needs libibverbs (rdma-core), ACTIVE ports, NCCL_IB_HCA naming the fabric "
                        + "HCAs, and nvidia-peermem for GPUDirect RDMA:"),
                        "ldconfig -p | grep libibverbs", "rdma link show", "modprobe nvidia-peermem",
                        "echo nvidia-peermem > /etc/modules-load.d/nvidia-peermem.conf")));
    }

    private static String fmt(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.format(Locale.ROOT, "%.2f", v);
    }
}
