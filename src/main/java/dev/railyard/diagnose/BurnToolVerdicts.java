package dev.railyard.diagnose;

import dev.railyard.check.BurnVerdict;
import dev.railyard.model.BurnResult;
import dev.railyard.model.BurnResult.Phase;
import dev.railyard.model.CheckId;
import dev.railyard.model.Finding;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * gpu-burn's and gpu-fryer's GPUs judged by burn's rules. Speed goes through {@link BurnVerdict} itself: each GPU's
 * sustained rate becomes a phase of a {@link BurnResult}, so a GPU more than 10 % (burn's and both tools' default
 * tolerance) behind the best fails with the same text as {@code railyard burn}. What only the tools count is said
 * under burn's IDs here: a load that died or did no work (burn.errors), result elements that differed
 * (burn.checksum), the clock-event reasons gpu-fryer saw (burn.throttle). What a tool does not read (Xid, ECC, power)
 * gets no verdict, never a PASS.
 */
final class BurnToolVerdicts {

    static final double TOLERANCE_PERCENT = 10;

    private BurnToolVerdicts() {
    }

    static List<Diagnosis> judge(List<BurnToolGpu> gpus, String tool, String rerun) {
        List<Diagnosis> out = new ArrayList<>();
        List<BurnResult.Gpu> loaded = new ArrayList<>();
        for (BurnToolGpu g : gpus) {
            double tflops = g.gflops().orElse(0.0) / 1000;
            long multiplies = g.worked() && g.gflops().isPresent() ? 1 : 0;
            Phase phase = new Phase(g.precision(), multiplies, 0, 0, tflops, tflops, Reading.absent("not in " + tool
                    + "'s output"), Reading.absent("not in " + tool + "'s output"), 0, Reading.absent("not in "
                    + tool + "'s output"));
            loaded.add(new BurnResult.Gpu(g.index(), g.target(), g.name().map(Reading::of)
                    .orElse(Reading.absent("not in " + tool + "'s output")), 0, List.of(phase), List.of(),
                    absent(tool), absent(tool), absent(tool), absent(tool), Reading.absent("")));
        }
        BurnResult asBurn = new BurnResult(Instant.EPOCH, Duration.ZERO, Duration.ZERO, true, "", 0, TOLERANCE_PERCENT,
                loaded, new BurnResult.NodePower(absent(tool), absent(tool), ""), absent(tool),
                new BurnResult.SamplerCost(0, 0, 0));
        List<Finding> speed = BurnVerdict.judge(asBurn).stream()
                .filter(f -> f.id().equals(CheckId.BURN_SPEED.id())).toList();
        for (BurnToolGpu g : gpus) {
            speed.stream().filter(f -> f.subject().equals(g.subject()) && g.worked())
                    .forEach(f -> out.add(new Diagnosis(f, g.line(), "", tool)));
            errors(g, tool, rerun).ifPresent(out::add);
            checksum(g, tool, rerun).ifPresent(out::add);
            throttle(g, tool).ifPresent(out::add);
        }
        return out;
    }

    private static <T> Reading<T> absent(String tool) {
        return Reading.absent("not in " + tool + "'s output");
    }

    /** A load that died, or a GPU the tool counted no work on: the tool's own OK notwithstanding. */
    private static Optional<Diagnosis> errors(BurnToolGpu g, String tool, String rerun) {
        String why = g.loadFailure().orElse(g.worked() ? null : "no multiply finished (0 Gflop/s)");
        if (why == null) return Optional.empty();
        return Optional.of(Diagnosis.of(CheckId.BURN_ERRORS.id(), Severity.FAIL, g.subject(), "the load failed: " + why
                        + g.verdict().map(v -> " (" + tool + " still says " + v + ")").orElse(""),
                "nvidia-smi -q -i " + g.target() + "; dmesg | grep -i xid  # a GPU that cannot run a load: reset it "
                        + "(nvidia-smi -r -i " + g.target() + ") and " + rerun + "; if it fails again it goes back to "
                        + "the vendor", g.line(), "", tool));
    }

    private static Optional<Diagnosis> checksum(BurnToolGpu g, String tool, String rerun) {
        if (g.errors().isEmpty()) return Optional.empty();
        long errors = g.errors().get();
        boolean faulty = g.verdict().filter(v -> v.equals("FAULTY")).isPresent();
        String fix = rerun + "  # on this GPU alone; a GPU that computes wrong results (silent data corruption) goes "
                + "back to the vendor";
        if (errors != 0 || faulty) {
            // gpu-burn's counter is a C int: past 2^31 it prints a negative number
            String observed = (errors > 0 ? errors + " result elements differed from the GPU's first result"
                    : errors < 0 ? "more result elements differed from the GPU's first result than " + tool
                    + "'s counter holds (it printed " + errors + ")" : "no count of differing elements")
                    + (faulty ? " (" + tool + ": FAULTY)" : "");
            return Optional.of(Diagnosis.of(CheckId.BURN_CHECKSUM.id(), Severity.FAIL, g.subject(), observed, fix,
                    g.line(), "", tool));
        }
        if (!g.worked()) return Optional.empty();
        return Optional.of(Diagnosis.of(CheckId.BURN_CHECKSUM.id(), Severity.PASS, g.subject(),
                "every result equal to the GPU's first (" + tool + "'s comparison, 0 errors)", "", g.line(), "", tool));
    }

    /** The reasons burn fails a GPU for: HW slowdown, SW or HW thermal slowdown (gpu-fryer reads no power brake). */
    private static Optional<Diagnosis> throttle(BurnToolGpu g, String tool) {
        if (g.throttles().isEmpty() || !g.worked()) return Optional.empty();
        List<String> seen = g.throttles().get();
        if (seen.isEmpty()) {
            return Optional.of(Diagnosis.of(CheckId.BURN_THROTTLE.id(), Severity.PASS, g.subject(),
                    "no HW slowdown or thermal slowdown seen by " + tool, "", g.line(), "", tool));
        }
        return Optional.of(Diagnosis.of(CheckId.BURN_THROTTLE.id(), Severity.FAIL, g.subject(), String.join(", ", seen)
                        + " under load", "nvidia-smi -q -d PERFORMANCE,TEMPERATURE -i " + g.target()
                        + "  # then check the GPU's airflow or cooling", g.line(), "", tool));
    }
}
