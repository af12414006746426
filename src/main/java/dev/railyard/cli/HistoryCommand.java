package dev.railyard.cli;

import dev.railyard.model.RailyardException;
import dev.railyard.report.Json;
import dev.railyard.report.Quantities;
import dev.railyard.store.History;
import dev.railyard.store.HistoryReader;
import dev.railyard.store.RunSummary;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

@Command(name = "history",
        mixinStandardHelpOptions = true,
        subcommands = HistoryShowCommand.class,
        description = {
                "List the validate runs stored in the history database, newest first.",
                "",
                "Every measurement of 'railyard validate' is stored the moment it completes, so a run that was "
                        + "interrupted (Ctrl-C, kill -9, a lost coordinator) is listed as incomplete with what it "
                        + "measured. 'railyard history RUN' (or 'history show RUN') prints one run; 'railyard compare "
                        + "A B' puts two side by side."},
        footer = {"", "Exit codes: 0 ok, 2 usage error or no history database.",
                "", "Examples:",
                "  railyard history",
                "  railyard history --format json --db ./history.db",
                "  railyard history 20261127-093406-8545"})
public final class HistoryCommand implements Callable<Integer> {

    @Mixin
    HistoryDbOption db;

    @Option(names = "--format", defaultValue = "text", paramLabel = "text|json",
            description = "Output format (default: ${DEFAULT-VALUE}).")
    OutputFormat format;

    @Parameters(arity = "0..1", paramLabel = "RUN", description = "Print this run (an ID or its unique beginning).")
    String run;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        if (run != null) return HistoryShowCommand.show(spec, db, run, format, null);
        if (format == OutputFormat.JUNIT) {
            throw new RailyardException.Usage("the run list has no JUnit form", "use --format text or json");
        }
        List<RunSummary> runs;
        try (HistoryReader reader = History.read(db.path())) {
            runs = reader.runs();
        }
        PrintWriter out = spec.commandLine().getOut();
        // docs/json.md: a document is an object (schemaVersion first), so the list sits under "runs"
        out.print(format == OutputFormat.JSON ? Json.write(java.util.Map.of("runs", runs.stream().map(RunLine::of).toList())) + "\n"
                : text(runs));
        out.flush();
        return ExitCodes.OK;
    }

    /** One run as the JSON list writes it: what the text table shows, with the duration in seconds. */
    record RunLine(String id, String cluster, String launcher, String startedAt, String finishedAt,
                   Double durationSeconds, int nodes, int nodesPlanned, int pairs, int pairTests, String verdict,
                   boolean complete) {
        static RunLine of(RunSummary s) {
            return new RunLine(s.id(), s.cluster(), s.launcher(), s.startedAt().toString(),
                    s.finishedAt().map(Object::toString).orElse(null),
                    s.duration().map(d -> d.toMillis() / 1000.0).orElse(null), s.nodes(), s.nodesPlanned(), s.pairs(),
                    s.pairTests(),
                    s.verdict().map(Enum::name).orElse(null), s.complete());
        }
    }

    static String text(List<RunSummary> runs) {
        if (runs.isEmpty()) return "No runs stored yet: railyard validate records each run here.\n";
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[]{"RUN", "CLUSTER", "STARTED", "DURATION", "NODES", "PAIRS", "VERDICT", "COMPLETE"});
        for (RunSummary s : runs) {
            rows.add(new String[]{s.id(), s.cluster(), Quantities.time(s.startedAt()),
                    s.duration().map(Quantities::duration).orElse("—"),
                    s.nodes() == s.nodesPlanned() ? Integer.toString(s.nodes()) : s.nodes() + " of " + s.nodesPlanned(),
                    Integer.toString(s.pairs()), s.verdict().map(Enum::name).orElse("—"),
                    s.complete() ? "yes" : "incomplete"});
        }
        int[] w = new int[rows.getFirst().length];
        for (String[] r : rows) for (int i = 0; i < w.length; i++) w[i] = Math.max(w[i], r[i].length());
        StringBuilder out = new StringBuilder();
        for (String[] r : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < w.length; i++) line.append(r[i]).append(" ".repeat(w[i] - r[i].length() + 2));
            out.append(line.toString().stripTrailing()).append('\n');
        }
        long incomplete = runs.stream().filter(s -> !s.complete()).count();
        out.append('\n').append(runs.size()).append(runs.size() == 1 ? " run" : " runs");
        if (incomplete > 0) out.append(", ").append(incomplete).append(" incomplete (stopped before their end: what they measured is kept)");
        return out.append('\n').toString();
    }
}
