package dev.railyard.check;

import dev.railyard.model.CheckId;
import dev.railyard.model.Finding;
import dev.railyard.model.Severity;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * bench.nccl.busbw for one {@code railyard bench nccl} sweep: data errors (#wrong) fail outright; busbw at the largest
 * size is judged against expect.nccl_busbw_gbytes_per_s when the spec gives one, otherwise reported as INFO (there is
 * no honest default: it depends on GPUs, NVLink and the fabric). An interrupted sweep is UNKNOWN.
 */
public final class NcclSweepVerdict {

    static final String ID = CheckId.BENCH_NCCL_BUSBW.id();

    private NcclSweepVerdict() {
    }

    public static List<Finding> judge(String subject, int ranks, long largestBytes, double largestBusbwGBps, long wrong,
                                      boolean complete, Optional<Double> expectGBps) {
        List<Finding> out = new ArrayList<>();
        String observed = String.format(Locale.ROOT, "%.1f GB/s busbw at %s over %d GPUs", largestBusbwGBps,
                Bytes.human(largestBytes), ranks);
        if (wrong > 0) {
            out.add(Finding.of(ID, Severity.FAIL, subject, wrong + " elements did not verify", "#wrong 0",
                    Fix.lines(Fix.note("a GPU or link corrupts data: on every node look for ECC and Xid errors, then "
                            + "repeat with fewer GPUs to find it"), "railyard check --only gpu.")));
        }
        if (!complete) {
            out.add(Finding.of(ID, Severity.UNKNOWN, subject, "sweep interrupted: " + observed, "a complete sweep", ""));
        } else if (expectGBps.isPresent()) {
            double want = expectGBps.get();
            String expected = String.format(Locale.ROOT, ">= %.1f GB/s (expect.nccl_busbw_gbytes_per_s)", want);
            out.add(largestBusbwGBps >= want ? Finding.pass(ID, subject, observed, expected)
                    : Finding.of(ID, Severity.FAIL, subject, observed, expected,
                    Fix.lines(Fix.note("NCCL must use the fabric (NET/IB, not NET/Socket) with GPUDirect RDMA; on "
                            + "every node:"), "railyard check --only rdma.,host.module.peermem",
                            "printenv | grep '^NCCL_'",
                            Fix.note("then the slow pairs in the pair matrix of this report"))));
        } else {
            out.add(Finding.of(ID, Severity.INFO, subject, observed, "no expect.nccl_busbw_gbytes_per_s in the spec", ""));
        }
        return out;
    }
}
