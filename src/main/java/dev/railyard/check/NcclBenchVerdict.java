package dev.railyard.check;

import dev.railyard.check.rules.NcclBusbwRule;
import dev.railyard.model.Finding;
import dev.railyard.model.NcclBenchResult;
import dev.railyard.model.NcclSizeResult;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * bench.nccl.busbw for one {@code railyard bench nccl} run: its facts (busbw out of place at the largest size, the
 * wrong elements, whether the ranks span nodes) handed to {@link NcclBusbwRule}.
 */
public final class NcclBenchVerdict {

    private NcclBenchVerdict() {
    }

    public static List<Finding> judge(String subject, NcclBenchResult r, Optional<Double> floorGBps,
                                      NcclBusbwRule.Span span) {
        List<Finding> out = new ArrayList<>();
        if (r.sizes().isEmpty()) {
            out.add(NcclBusbwRule.unread("no size was measured", NcclBusbwRule.expected(floorGBps),
                    Fix.lines(Fix.note("every size was too small to give each rank an element: start larger, e.g."),
                            "railyard bench nccl " + r.collective() + " -b 1M -e 1G -g " + r.nranks())).on(subject));
        } else {
            NcclSizeResult big = r.sizes().getLast();
            double busbw = big.outOfPlace().busbwGBps();
            String observed = String.format(Locale.ROOT, "%.2f GB/s busbw at %d B (%s, %d ranks)", busbw, big.bytes(),
                    r.collective(), r.nranks());
            out.add(NcclBusbwRule.busbw(observed, busbw, r.complete(), floorGBps, span).on(subject));
        }
        NcclBusbwRule.wrong(r.wrongTotal(), false).ifPresent(v -> out.add(v.on(subject)));
        return out;
    }
}
