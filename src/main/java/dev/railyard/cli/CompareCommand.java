package dev.railyard.cli;

import dev.railyard.model.RailyardException;
import dev.railyard.report.Json;
import dev.railyard.model.ValidationReport;
import dev.railyard.report.RunComparison;
import java.util.List;
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
                "Put two stored validate runs side by side on every number they stored: loopback TCP, NCCL busbw per "
                        + "size, GPU copy rates, storage, and each network's pairs (their median, then each pair), with "
                        + "the change in percent, largest first, and the culprits that appeared or went away.",
                "",
                "Made for before/after questions, like a back-to-back cable versus the same nodes through a "
                        + "switch: run validate before, change the fabric, run it again, compare. A change counts "
                        + "only beyond its noise band: twice the spread of that number over the cluster's earlier runs "
                        + "(5 %% until two are stored). 'better' and 'worse' account for latency being better lower. "
                        + "A pair's number is its last attempt (the retest, where there was one)."},
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

    /** Earlier runs the noise band is measured over: enough for a spread, few enough to load quickly. */
    static final int NOISE_RUNS = 5;

    @Override
    public Integer call() {
        if (format == OutputFormat.JUNIT) {
            throw new RailyardException.Usage("compare has no JUnit form", "use --format text or json");
        }
        RunComparison comparison;
        try (HistoryReader reader = History.read(db.path())) {
            ValidationReport a = reader.load(reader.resolve(runA));
            ValidationReport b = reader.load(reader.resolve(runB));
            // the noise band comes from the cluster's earlier complete runs (A among them), B's own number aside
            List<ValidationReport> repeats = reader.runs().stream()
                    .filter(s -> s.cluster().equals(b.cluster()) && s.complete() && !s.id().equals(b.runId())
                            && !s.startedAt().isAfter(b.startedAt()))
                    .limit(NOISE_RUNS).map(s -> s.id().equals(a.runId()) ? a : reader.load(s.id())).toList();
            comparison = RunComparison.of(a, b, repeats);
        }
        PrintWriter out = spec.commandLine().getOut();
        out.print(format == OutputFormat.JSON ? Json.write(comparison) + "\n" : comparison.text());
        out.flush();
        return ExitCodes.OK;
    }
}
