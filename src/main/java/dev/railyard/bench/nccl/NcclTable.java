package dev.railyard.bench.nccl;

import dev.railyard.model.NcclBenchResult;
import dev.railyard.model.NcclSizeResult;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

/** nccl-tests' table layout, so people (and `railyard diagnose`) read it the same way. */
public final class NcclTable {

    private final PrintWriter out;

    public NcclTable(PrintWriter out) {
        this.out = out;
    }

    public void header(NcclBenchConfig cfg, int nranks, List<String> devices, String ncclVersion) {
        out.printf(Locale.ROOT, "# railyard bench nccl: %s, %d ranks, %s %s, warmup %d, iters %d, check %s, NCCL %s%n",
                cfg.collective().label, nranks, cfg.type().label, cfg.opLabel(), cfg.warmupIters(), cfg.iters(),
                cfg.check() ? "on" : "off", ncclVersion);
        for (int i = 0; i < devices.size(); i++) out.printf("#  Rank %2d device %s%n", i, devices.get(i));
        out.println("#");
        out.println("#                                                              out-of-place                       in-place");
        out.println("#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong");
        out.println("#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)");
        out.flush();
    }

    public void row(NcclSizeResult r) {
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "%12d  %12d  %8s  %6s  %6d", r.bytes(),
                r.count(), r.type(), r.redop(), r.root()));
        b.append(timing(r.outOfPlace()));
        b.append(r.inPlace().map(NcclTable::timing).orElse(String.format(Locale.ROOT, "  %7s  %6s  %6s  %6s",
                "N/A", "N/A", "N/A", "N/A")));
        out.println(b);
        out.flush();
    }

    private static String timing(NcclSizeResult.Timing t) {
        return String.format(Locale.ROOT, "  %7.2f  %6.2f  %6.2f  %6s", t.timeUs(), t.algbwGBps(), t.busbwGBps(),
                t.wrong() < 0 ? "N/A" : Long.toString(t.wrong()));
    }

    public void footer(NcclBenchResult result) {
        out.printf(Locale.ROOT, "# Out of bounds values : %d %s%n", result.wrongTotal(), result.wrongTotal() == 0 ? "OK" : "FAILED");
        out.printf(Locale.ROOT, "# Avg bus bandwidth    : %.4f %n", result.avgBusbwGBps());
        if (!result.complete()) out.println("# interrupted: the rows above are every size measured before the stop");
        out.println("#");
        out.flush();
    }
}
