package dev.railyard.model;

/**
 * What one pair test gave: a number in its kind's unit, why there is none (never a silent zero), or why the test
 * was not run at all (an end of the pair was lost). A pair not run says nothing about its link.
 */
public sealed interface PairOutcome permits PairOutcome.Measured, PairOutcome.Failed, PairOutcome.NotRun {

    record Measured(double value) implements PairOutcome {
        public Measured {
            if (!Double.isFinite(value) || value < 0) throw new IllegalArgumentException("not a measurement: " + value);
        }
    }

    /** The test ran but gave no number: unreachable server, timeout, tool error, unparseable output. */
    record Failed(String reason) implements PairOutcome {}

    /** The test was not run, or its run does not count, because an end was lost: {@code notRun} says which and when. */
    record NotRun(String notRun) implements PairOutcome {
        /** How history stores it in the failure column, so it reads back as not run, not as failed. */
        public static final String STORED_PREFIX = "not run: ";
    }
}
