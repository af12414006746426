package dev.railyard.cli;

import dev.railyard.plan.RailsPlan;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

@Command(name = "rails", mixinStandardHelpOptions = true,
        description = {"Switches and cables for a rail-optimised fabric: NIC r of every node on rail r (seed 001)."},
        footer = {"", "Examples:", "  railyard plan rails --nodes 8 --rails 1 --radix 36     # seed 004: one 36-port HDR switch",
                "  railyard plan rails --nodes 32 --rails 8 --radix 40    # 8 rail switches, as seed 001 describes a SuperPOD"})
public final class PlanRailsCommand implements Callable<Integer> {

    @Option(names = "--nodes", required = true, description = "Nodes.") int nodes;
    @Option(names = "--rails", required = true, description = "Fabric NICs per node (one per GPU when rail-optimised).") int rails;
    @Option(names = "--radix", required = true, description = "Ports per switch.") int radix;
    @Option(names = "--format", defaultValue = "text", paramLabel = "text|json", description = "Output format (default: ${DEFAULT-VALUE}).") OutputFormat format;

    @Spec CommandSpec spec;

    @Override
    public Integer call() {
        PlanCommand.positive("--nodes", nodes);
        PlanCommand.positive("--rails", rails);
        if (radix < 2) throw new dev.railyard.model.RailyardException.Usage("--radix must be at least 2", "");
        return PlanCommand.print(spec, format, new RailsPlan(nodes, rails, radix).calculate());
    }
}
