package dev.railyard.check;

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

    static final String ID = "bench.nccl.busbw";

    private NcclSweepVerdict() {
    }

    public static List<Finding> judge(String subject, int ranks, long largestBytes, double largestBusbwGBps, long wrong,
                                      boolean complete, Optional<Double> expectGBps) {
        List<Finding> out = new ArrayList<>();
        String observed = String.format(Locale.ROOT, "%.1f GB/s busbw at %s over %d GPUs", largestBusbwGBps,
                Bytes.human(largestBytes), ranks);
        if (wrong > 0) {
            out.add(Finding.of(ID, Severity.FAIL, subject, wrong + " elements did not verify", "#wrong 0",
                    "a GPU or link corrupts data: run 'railyard check' (gpu.ecc.uncorrected, gpu.xid) on every node and "
                            + "repeat with fewer GPUs to find it"));
        }
        if (!complete) {
            out.add(Finding.of(ID, Severity.UNKNOWN, subject, "sweep interrupted: " + observed, "a complete sweep", ""));
        } else if (expectGBps.isPresent()) {
            double want = expectGBps.get();
            String expected = String.format(Locale.ROOT, ">= %.1f GB/s (expect.nccl_busbw_gbytes_per_s)", want);
            out.add(largestBusbwGBps >= want ? Finding.pass(ID, subject, observed, expected)
                    : Finding.of(ID, Severity.FAIL, subject, observed, expected,
                    "check that NCCL uses the fabric (NCCL_DEBUG=INFO: NET/IB, not NET/Socket), NCCL_IB_HCA and "
                            + "nvidia-peermem (railyard check), then the slow pairs in the pair matrix"));
        } else {
            out.add(Finding.of(ID, Severity.INFO, subject, observed, "no expect.nccl_busbw_gbytes_per_s in the spec", ""));
        }
        return out;
    }
}
