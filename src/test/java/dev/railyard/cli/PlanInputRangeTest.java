package dev.railyard.cli;

import dev.railyard.plan.Calculation;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Every numeric option of the plan calculators is a finite number in its range before anything is computed: a
 * mistake is one line and exit 2, never "Infinity kW", a silently dropped result or "Infinity" in the JSON.
 */
class PlanInputRangeTest {

    private static final List<String> POWER = List.of("plan", "power", "--nodes", "8", "--gpus-per-node", "8",
            "--gpu-watts", "700");
    private static final List<String> ALLREDUCE = List.of("plan", "allreduce", "--gpus", "64", "--fabric", "ib-hdr",
            "--params", "7e9", "--step-time", "1.0");
    private static final List<String> STORAGE = List.of("plan", "storage", "--nodes", "8", "--measured-mbps", "2100");

    private static CliRun with(List<String> base, String... more) {
        List<String> args = new ArrayList<>(base);
        for (int i = 0; i < more.length; i += 2) {
            int at = args.indexOf(more[i]);
            if (at >= 0) args.set(at + 1, more[i + 1]);
            else args.addAll(List.of(more[i], more[i + 1]));
        }
        return CliRun.of(args.toArray(String[]::new));
    }

    private static void refused(CliRun r, String option) {
        assertThat(r.code()).as(r.out() + r.err()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).matches("(?s)railyard: " + java.util.regex.Pattern.quote(option) + " (must |cannot be negative, got ).*");
        assertThat(r.out()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"Infinity", "-Infinity", "NaN", "0", "-700"})
    void gpuWattsMustBeAFinitePositiveNumber(String value) {
        refused(with(POWER, "--gpu-watts", value), "--gpu-watts");
    }

    @Test
    void powerOptionsOutOfTheirRange() {
        refused(with(POWER, "--derate", "5"), "--derate");
        refused(with(POWER, "--derate", "0"), "--derate");
        refused(with(POWER, "--volts", "0"), "--volts");
        refused(with(POWER, "--breaker-amps", "Infinity"), "--breaker-amps");
        refused(with(POWER, "--pue", "0.5"), "--pue");
        refused(with(POWER, "--host-watts", "-1"), "--host-watts");
        refused(with(POWER, "--psu-watts", "NaN"), "--psu-watts");
    }

    @Test
    void allreduceOptionsOutOfTheirRange() {
        refused(with(ALLREDUCE, "--step-time", "0"), "--step-time");
        refused(with(ALLREDUCE, "--measured-busbw", "0"), "--measured-busbw");
        refused(with(ALLREDUCE, "--params", "Infinity"), "--params");
        refused(with(ALLREDUCE, "--link-gbytes", "-5"), "--link-gbytes");
        refused(with(ALLREDUCE, "--alpha-us", "NaN"), "--alpha-us");
        refused(with(ALLREDUCE, "--bytes-per-param", "0"), "--bytes-per-param");
    }

    @Test
    void storageOptionsOutOfTheirRange() {
        refused(with(STORAGE, "--bytes-per-step", "0"), "--bytes-per-step");
        refused(with(STORAGE, "--measured-mbps", "Infinity"), "--measured-mbps");
        refused(with(STORAGE, "--bytes-per-token", "0"), "--bytes-per-token");
        refused(with(STORAGE, "--tokens", "0"), "--tokens");
    }

    @Test
    void aNodeLargerThanABreakerIsANoteNotAnInfiniteCount() {
        CliRun r = with(POWER, "--breaker-amps", "10", "--format", "json");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).doesNotContain("Infinity").doesNotContain("NaN").contains("exceeds one 10 A breaker");
    }

    @Test
    void aResultThatIsNotFiniteIsABugNotAString() {
        assertThatThrownBy(() -> new Calculation.Quantity("breakers", Double.POSITIVE_INFINITY, ""))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("breakers");
    }
}
