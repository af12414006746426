package dev.railyard.bench.nccl;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The timed regions of a fake-library call trace (one line per C call, "cudaEventRecord 0x..." naming the event) and
 * the calls inside them that were some function's {@value #CUSTOMIZED_ON}th: the call on which the JDK customizes a
 * downcall handle held in a field (scripts/HandleCustomizationProbe.java), 1-2.5 ms that would be timed.
 * A region runs from the first start-event record of a measurement (exclusive: the first rank's start is recorded after
 * that call's own overhead) to the last end-event record (inclusive: a record call's overhead comes before it takes
 * the time).
 */
record TimedRegions(int count, List<Hit> hits) {

    static final int CUSTOMIZED_ON = 128;

    /** A function's 128th call inside timed region {@code region} (0-based), at trace line {@code line} (1-based). */
    record Hit(int region, String function, int line) {}

    static TimedRegions of(List<String> trace, Set<Long> startEvents, Set<Long> endEvents) {
        Map<String, Integer> calls = new HashMap<>();
        List<Hit> hits = new ArrayList<>();
        Set<Long> endsLeft = new HashSet<>();
        boolean inside = false;
        int regions = 0;
        for (int i = 0; i < trace.size(); i++) {
            String[] parts = trace.get(i).split(" ");
            String fn = parts[0];
            int n = calls.merge(fn, 1, Integer::sum);
            Long event = fn.equals("cudaEventRecord") ? Long.decode(parts[1]) : null;
            if (!inside) {
                if (event != null && startEvents.contains(event)) {
                    inside = true;
                    endsLeft.addAll(endEvents);
                }
                continue;
            }
            if (n == CUSTOMIZED_ON) hits.add(new Hit(regions, fn, i + 1));
            if (event != null && endsLeft.remove(event) && endsLeft.isEmpty()) {
                inside = false;
                regions++;
            }
        }
        return new TimedRegions(regions, hits);
    }

    /** The hits in regions {@code from} and later. */
    List<Hit> hitsFrom(int from) {
        return hits.stream().filter(h -> h.region() >= from).toList();
    }
}
