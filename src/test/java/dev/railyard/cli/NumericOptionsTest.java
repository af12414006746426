package dev.railyard.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Every numeric option of every command refuses a negative number, and every floating one NaN and the infinities,
 * before its command runs: exit 2 with the option named, never a run that computes with "Infinity" or -1.
 */
class NumericOptionsTest {

    private static final Set<Class<?>> WHOLE = Set.of(int.class, Integer.class, long.class, Long.class);
    private static final Set<Class<?>> FLOATING = Set.of(double.class, Double.class, float.class, Float.class);

    private record Numeric(CommandSpec command, OptionSpec option, boolean floating) {
    }

    private static List<Numeric> numericOptions(CommandLine cl, List<Numeric> into) {
        for (OptionSpec o : cl.getCommandSpec().options()) {
            Class<?> type = o.isMultiValue() && o.auxiliaryTypes().length > 0 ? o.auxiliaryTypes()[0] : o.type();
            if (WHOLE.contains(type) || FLOATING.contains(type)) into.add(new Numeric(cl.getCommandSpec(), o, FLOATING.contains(type)));
        }
        cl.getSubcommands().values().forEach(sub -> numericOptions(sub, into));
        return into;
    }

    private static Object value(OptionSpec option, double v) {
        Class<?> type = option.isMultiValue() ? option.auxiliaryTypes()[0] : option.type();
        if (type == int.class || type == Integer.class) return (int) v;
        if (type == long.class || type == Long.class) return (long) v;
        if (type == float.class || type == Float.class) return (float) v;
        return v;
    }

    private static void refused(Numeric n, double v, String why) {
        Object typed = value(n.option(), v);
        n.option().setValue(n.option().isMultiValue() ? new ArrayList<>(List.of(typed)) : typed);
        CommandLine.ParseResult result = CommandLine.ParseResult.builder(n.command()).addOption(n.option()).build();
        assertThatThrownBy(() -> NumericOptions.check(result))
                .as(n.command().qualifiedName() + " " + n.option().longestName() + " " + v)
                .isInstanceOf(CommandLine.ParameterException.class)
                .hasMessage(n.option().longestName() + " " + why + ", got " + typed);
    }

    @Test
    void everyNumericOptionOfEveryCommandRefusesANegativeNumberAndNonFiniteOnes() {
        List<Numeric> all = numericOptions(Main.commandLine(), new ArrayList<>());
        assertThat(all).as("the numeric options found").hasSizeGreaterThan(40);
        for (Numeric n : all) {
            refused(n, -1, "cannot be negative");
            if (n.floating()) {
                refused(n, Double.NaN, "must be a finite number");
                refused(n, Double.POSITIVE_INFINITY, "must be a finite number");
            }
        }
    }

    @Test
    void zeroAndPositiveNumbersPassTheFloor() {
        for (Numeric n : numericOptions(Main.commandLine(), new ArrayList<>())) {
            for (double v : new double[]{0, 1, 65535}) {
                Object typed = value(n.option(), v);
                n.option().setValue(n.option().isMultiValue() ? new ArrayList<>(List.of(typed)) : typed);
                NumericOptions.check(CommandLine.ParseResult.builder(n.command()).addOption(n.option()).build());
            }
        }
    }

    @Test
    void theCommandLineRefusesThemWithExit2BeforeTheCommandRuns() {
        CliRun nan = CliRun.of("burn", "--tolerance", "NaN");
        assertThat(nan.code()).as(nan.out() + nan.err()).isEqualTo(ExitCodes.USAGE);
        assertThat(nan.err()).startsWith("railyard: --tolerance must be a finite number, got NaN");
        assertThat(nan.out()).isEmpty();

        CliRun negative = CliRun.of("bench", "gpu", "--iters", "-1");
        assertThat(negative.code()).as(negative.out() + negative.err()).isEqualTo(ExitCodes.USAGE);
        assertThat(negative.err()).startsWith("railyard: --iters cannot be negative, got -1");

        CliRun infinite = CliRun.of("bench", "tcp", "client", "127.0.0.1", "--expect-gbps", "Infinity");
        assertThat(infinite.code()).as(infinite.out() + infinite.err()).isEqualTo(ExitCodes.USAGE);
        assertThat(infinite.err()).startsWith("railyard: --expect-gbps must be a finite number, got Infinity");
    }
}
