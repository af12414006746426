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
                    Fix.lines(Fix.note("every size was too small to give each rank an element: start larger, e.g."),
                            "railyard bench nccl " + r.collective() + " -b 1M -e 1G -g " + r.nranks())));
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
                        Fix.lines(Fix.note("NVLink or PCIe between the GPUs, and the transport NCCL picked (P2P, SHM or NET):"),
                                "nvidia-smi topo -m",
                                "unset NCCL_P2P_DISABLE NCCL_SHM_DISABLE",
                                "NCCL_DEBUG=INFO railyard bench nccl " + r.collective() + " -b 1G -e 1G -g " + r.nranks()
                                        + " 2>&1 | grep -E 'via|NET/'")));
            }
        }
        long wrong = r.wrongTotal();
        if (wrong > 0) {
            out.add(new Finding(BenchVerdicts.NCCL_BUSBW, Severity.FAIL, subject, wrong + " wrong values", "#wrong = 0",
                    BenchVerdicts.CORRUPTED));
        }
        return out;
    }
}
