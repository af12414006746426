package dev.railyard.cli;

import dev.railyard.model.RailyardException;
import dev.railyard.report.Json;
import dev.railyard.report.RunComparison;
import dev.railyard.store.History;
import dev.railyard.store.HistoryReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

@Command(name = "compare",
        mixinStandardHelpOptions = true,
        description = {
                "Put two stored validate runs side by side: every pair's number per network and test, and the change "
                        + "in percent.",
                "",
                "Made for before/after questions, like a back-to-back cable versus the same nodes through a "
                        + "switch: run validate before, change the fabric, run it again, compare. Each network and test "
                        + "starts with the median over its pairs; 'better' and 'worse' account for latency being "
                        + "better lower. A pair's number is its last attempt (the retest, where there was one)."},
        footer = {"", "Exit codes: 0 ok, 2 usage error, no history database or no such run.",
                "", "Examples:",
                "  railyard compare 20261126-221512-0c3e 20261127-093406-8545",
                "  railyard compare 20261126-221512-0c3e 20261127-093406-8545 \\",
                "      --format json --db ./history.db"})
public final class CompareCommand implements Callable<Integer> {

    @Mixin
    HistoryDbOption db;

    @Option(names = "--format", defaultValue = "text", paramLabel = "text|json",
            description = "Output format (default: ${DEFAULT-VALUE}).")
    OutputFormat format;

    @Parameters(index = "0", paramLabel = "RUN_A", description = "The run to compare from (the baseline).")
    String runA;

    @Parameters(index = "1", paramLabel = "RUN_B", description = "The run to compare with it.")
    String runB;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        if (format == OutputFormat.JUNIT) {
            throw new RailyardException.Usage("compare has no JUnit form", "use --format text or json");
        }
        RunComparison comparison;
        try (HistoryReader reader = History.read(db.path())) {
            comparison = RunComparison.of(reader.load(reader.resolve(runA)), reader.load(reader.resolve(runB)));
        }
        PrintWriter out = spec.commandLine().getOut();
        out.print(format == OutputFormat.JSON ? Json.write(comparison) + "\n" : comparison.text());
        out.flush();
        return ExitCodes.OK;
    }
}
