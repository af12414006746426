package dev.railyard.check;

import dev.railyard.model.Finding;
import dev.railyard.model.NcclBenchResult;
import dev.railyard.model.NcclSizeResult;
import dev.railyard.model.Severity;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * bench.nccl.busbw for railyard's own NCCL sweep, judged as nccl-tests output is (BenchVerdicts.ncclRunBusbw):
 * busbw out of place at the largest size against the spec's floor, and any wrong element a FAIL of its own.
 */
public final class NcclBenchVerdict {

    private NcclBenchVerdict() {
    }

    public static List<Finding> judge(String subject, NcclBenchResult r, Optional<Double> floorGBps) {
        List<Finding> out = new ArrayList<>();
        String expected = floorGBps.map(e -> String.format(Locale.ROOT, ">= %.2f GB/s busbw at the largest size", e))
                .orElse("no busbw expectation (expect.nccl_busbw_gbytes_per_s in the spec)");
        if (r.sizes().isEmpty()) {
            out.add(new Finding(BenchVerdicts.NCCL_BUSBW, Severity.UNKNOWN, subject, "no size was measured", expected,
                    "give -b/-e so that at least one size holds an element per rank"));
        } else {
            NcclSizeResult big = r.sizes().getLast();
            double busbw = big.outOfPlace().busbwGBps();
            String observed = String.format(Locale.ROOT, "%.2f GB/s busbw at %d B (%s, %d ranks)%s", busbw, big.bytes(),
                    r.collective(), r.nranks(), r.complete() ? "" : ", run interrupted");
            if (floorGBps.isEmpty()) {
                out.add(new Finding(BenchVerdicts.NCCL_BUSBW, Severity.INFO, subject, observed, expected, ""));
            } else if (busbw >= floorGBps.get()) {
                out.add(Finding.pass(BenchVerdicts.NCCL_BUSBW, subject, observed, expected));
            } else {
                out.add(new Finding(BenchVerdicts.NCCL_BUSBW, Severity.FAIL, subject, observed, expected,
                        "compare with nvidia-smi topo -m (NVLink or PCIe between the GPUs), keep NCCL_P2P_DISABLE "
                                + "and NCCL_SHM_DISABLE unset, and rerun with NCCL_DEBUG=INFO to see the transport"));
            }
        }
        long wrong = r.wrongTotal();
        if (wrong > 0) {
            out.add(new Finding(BenchVerdicts.NCCL_BUSBW, Severity.FAIL, subject, wrong + " wrong values", "#wrong = 0",
                    "data came back corrupted: check dmesg for Xid/ECC errors (railyard check --only gpu.) and "
                            + "rerun with -g 2 on one GPU pair at a time to find the bad one"));
        }
        return out;
    }
}
