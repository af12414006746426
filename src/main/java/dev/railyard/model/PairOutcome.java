package dev.railyard.model;

/** What one pair test gave: a number in its kind's unit, or why there is none (never a silent zero). */
public sealed interface PairOutcome permits PairOutcome.Measured, PairOutcome.Failed {

    record Measured(double value) implements PairOutcome {
        public Measured {
            if (!Double.isFinite(value) || value < 0) throw new IllegalArgumentException("not a measurement: " + value);
        }
    }

    /** The test ran but gave no number: unreachable server, timeout, tool error, unparseable output. */
    record Failed(String reason) implements PairOutcome {}
}
