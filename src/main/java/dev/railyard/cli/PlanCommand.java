package dev.railyard.cli;

import dev.railyard.plan.Calculation;
import dev.railyard.report.Json;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;

@Command(name = "plan",
        mixinStandardHelpOptions = true,
        description = {"Capacity arithmetic of seed 004 as calculators: each prints its formula, its inputs and its results."},
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

    static void positive(String option, double v) {
        if (!(v > 0)) throw new dev.railyard.model.RailyardException.Usage(option + " must be greater than 0, got " + v, "");
    }
}
