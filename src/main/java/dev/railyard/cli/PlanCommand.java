package dev.railyard.cli;

import dev.railyard.plan.Calculation;
import dev.railyard.report.Json;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;

@Command(name = "plan",
        mixinStandardHelpOptions = true,
        description = {"The capacity arithmetic of a GPU cluster build-out as calculators: each prints its formula, its inputs and its results."},
        subcommands = {PlanPowerCommand.class, PlanAllreduceCommand.class, PlanStorageCommand.class, PlanRailsCommand.class})
public final class PlanCommand implements Runnable {

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** Prints a calculation as text or JSON (--format junit has nothing to report here). */
    static int print(CommandSpec spec, OutputFormat format, Calculation c) {
        PrintWriter out = spec.commandLine().getOut();
        switch (format) {
            case TEXT -> out.print(c.text());
            case JSON -> out.println(Json.write(c));
            case JUNIT -> throw new dev.railyard.model.RailyardException.Usage("plan prints text or json", "use --format json");
        }
        out.flush();
        return ExitCodes.OK;
    }

    /** A count or amount that must be a finite number above 0 (picocli reads "Infinity" and "NaN" as doubles). */
    static void positive(String option, double v) {
        if (!(v > 0) || Double.isInfinite(v)) {
            throw new dev.railyard.model.RailyardException.Usage(option + " must be a finite number greater than 0, got "
                    + shown(v), "for example " + option + " 1");
        }
    }

    /** An optional amount: absent is fine, present must be finite and above 0. */
    static void positive(String option, Double v) {
        if (v != null) positive(option, v.doubleValue());
    }

    /** A finite number from {@code min} to {@code max}, both included. */
    static void within(String option, double v, double min, double max) {
        if (!(v >= min && v <= max)) {
            throw new dev.railyard.model.RailyardException.Usage(option + " must be from " + shown(min) + " to "
                    + shown(max) + ", got " + shown(v), "");
        }
    }

    /** A finite number of {@code min} or more. */
    static void atLeast(String option, double v, double min) {
        if (!(v >= min) || Double.isInfinite(v)) {
            throw new dev.railyard.model.RailyardException.Usage(option + " must be a finite number of at least "
                    + shown(min) + ", got " + shown(v), "");
        }
    }

    private static String shown(double v) {
        return v == Math.rint(v) && !Double.isInfinite(v) ? String.valueOf((long) v) : String.valueOf(v);
    }
}
