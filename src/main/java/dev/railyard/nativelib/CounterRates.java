package dev.railyard.nativelib;

import dev.railyard.model.Reading;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Rates from NVML's cumulative byte counters: the change since the previous reading of the same counter over the
 * time between NVML's own timestamps of the two. The first reading has no rate yet; a counter that went back (a
 * wrap, a driver reload) starts over rather than giving a negative or huge rate.
 */
final class CounterRates {

    private record Last(long timestampMicros, long value) {}

    private final Map<String, Last> last = new ConcurrentHashMap<>();

    /** Bytes per second of the counter named {@code key} (a bus ID and a direction). */
    Reading<Double> perSecond(String key, long timestampMicros, long value) {
        Last before = last.put(key, new Last(timestampMicros, value));
        if (before == null) return Reading.absent("a rate needs two readings; this was the first");
        long dt = timestampMicros - before.timestampMicros();
        if (dt <= 0) return Reading.absent("NVML gave the same timestamp twice");
        if (Long.compareUnsigned(value, before.value()) < 0) return Reading.absent("the counter went back (wrapped or reset)");
        return Reading.of((value - before.value()) * 1e6 / dt);
    }
}
