package dev.railyard.check;

import dev.railyard.check.rules.NcclBusbwRule;
import dev.railyard.model.Finding;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * bench.nccl.busbw for validate's NCCL sweep across the cluster's GPUs: its facts (busbw at the largest size, wrong
 * elements, whether it finished, whether its ranks span nodes) handed to {@link NcclBusbwRule}.
 */
public final class NcclSweepVerdict {

    private NcclSweepVerdict() {
    }

    public static List<Finding> judge(String subject, int ranks, long largestBytes, double largestBusbwGBps, long wrong,
                                      boolean complete, Optional<Double> expectGBps, NcclBusbwRule.Span span) {
        List<Finding> out = new ArrayList<>();
        String observed = String.format(Locale.ROOT, "%.1f GB/s busbw at %s over %d GPUs", largestBusbwGBps,
                Bytes.human(largestBytes), ranks);
        NcclBusbwRule.wrong(wrong, false).ifPresent(v -> out.add(v.on(subject)));
        out.add(NcclBusbwRule.busbw(observed, largestBusbwGBps, complete, expectGBps, span).on(subject));
        return out;
    }
}
