package dev.railyard.bench.burn;

import dev.railyard.model.BurnResult.Precision;
import dev.railyard.model.BurnResult.Sample;

import java.time.Duration;
import java.util.Map;

/** What a burn tells whoever watches it (the live lines of {@code railyard burn}); called on the burn's own thread. */
public interface BurnProgress {

    /** A phase begins: every GPU multiplies in {@code precision} for {@code length}. */
    default void phase(Precision precision, Duration length) {
    }

    /** One sample of every GPU, by CUDA device, in device order. */
    default void sampled(double atSeconds, Map<Integer, Sample> samples) {
    }

    BurnProgress NONE = new BurnProgress() {
    };
}
