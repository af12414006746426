package dev.railyard.cluster;

import dev.railyard.check.rules.Verdict;
import dev.railyard.model.PairKind;
import dev.railyard.model.PairOutcome;
import dev.railyard.model.PairResult;
import dev.railyard.model.PairTest;

import java.util.Optional;
import java.util.OptionalDouble;

/**
 * One pair's latest result against its bar: {@code bar} is the floor (bandwidth) or ceiling (latency) in the kind's
 * unit, {@code basis} says where the bar came from ("90% of 40 Gb/s", "0.5 x fleet median 9.1 Gb/s of 6 pairs").
 * {@code rule} is the ID's rule's verdict on a measured pair (RDMA bandwidth only on a network with a rate): it decides
 * {@code bad} and gives the fix, as for the same number from {@code bench}. It is shared by every pair with the same
 * outcome, and its observed text is only what the rule adds to the number.
 */
public record PairJudgement(PairResult result, OptionalDouble bar, String basis, boolean bad,
                            Optional<Verdict> rule) {

    public PairJudgement(PairResult result, OptionalDouble bar, String basis, boolean bad) {
        this(result, bar, basis, bad, Optional.empty());
    }

    public PairTest test() {
        return result.test();
    }

    public PairKind kind() {
        return result.test().kind();
    }

    /** The test was not run (an end was lost): it judges nothing, neither the link nor the bar. */
    public boolean notRun() {
        return result.outcome() instanceof PairOutcome.NotRun;
    }

    public OptionalDouble value() {
        return result.outcome() instanceof PairOutcome.Measured(double v) ? OptionalDouble.of(v) : OptionalDouble.empty();
    }

    /** "9.4 Gb/s" or "no result: connection refused". */
    public String observed() {
        return switch (result.outcome()) {
            case PairOutcome.Measured(double v) -> PairJudge.format(v) + " " + kind().unit();
            case PairOutcome.Failed(String reason) -> "no result: " + reason;
            case PairOutcome.NotRun(String why) -> "not run: " + why;
        };
    }

    /** "≥ 36.0 Gb/s (90% of 40 Gb/s)" or "≤ 3.0 µs (1.5 x fleet median ...)". */
    public String expected() {
        if (bar.isEmpty()) return basis;
        return (kind().higherIsBetter() ? ">= " : "<= ") + PairJudge.format(bar.getAsDouble()) + " " + kind().unit()
                + " (" + basis + ")";
    }
}
