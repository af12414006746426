package dev.railyard.cli;

import dev.railyard.model.RailyardException;
import dev.railyard.model.ValidationReport;
import dev.railyard.report.ValidationJUnit;
import dev.railyard.report.ValidationJson;
import dev.railyard.report.ValidationMarkdown;
import dev.railyard.report.ValidationReportFiles;
import dev.railyard.store.History;
import dev.railyard.store.HistoryReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;

@Command(name = "show",
        mixinStandardHelpOptions = true,
        description = {
                "Print one stored run: its nodes, pairs, culprits and findings, rebuilt from the history database.",
                "",
                "text is the Markdown form of the report (report.md), json the report.json form; --out DIR writes the "
                        + "whole report directory again (index.html, report.md, report.json, junit.xml)."},
        footer = {"", "Exit codes: 0 ok, 2 usage error, no history database or no such run.",
                "", "Examples:",
                "  railyard history show 20261127-093406-8545",
                "  railyard history show 20261127-093406-8545 --out ./report-again"})
public final class HistoryShowCommand implements Callable<Integer> {

    @Mixin
    HistoryDbOption db;

    @Option(names = "--format", defaultValue = "text", paramLabel = "text|json|junit",
            description = "Output format (default: ${DEFAULT-VALUE}).")
    OutputFormat format;

    @Option(names = "--out", paramLabel = "DIR", description = "Write the report directory of the run to DIR.")
    Path out;

    @Parameters(paramLabel = "RUN", description = "The run: its ID or the unique beginning of one.")
    String run;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        return show(spec, db, run, format, out);
    }

    static int show(CommandSpec spec, HistoryDbOption db, String run, OutputFormat format, Path outDir) {
        ValidationReport report;
        try (HistoryReader reader = History.read(db.path())) {
            report = reader.load(reader.resolve(run));
        }
        PrintWriter out = spec.commandLine().getOut();
        if (outDir != null) {
            try {
                ValidationReportFiles.write(report, outDir);
            } catch (IOException e) {
                throw new RailyardException.Usage("cannot write the report to " + outDir + ": " + e.getMessage(),
                        "choose another directory with --out");
            }
            out.println("wrote " + outDir.resolve(ValidationReportFiles.HTML));
        } else {
            out.print(switch (format) {
                case TEXT -> ValidationMarkdown.render(report);
                case JSON -> ValidationJson.render(report);
                case JUNIT -> ValidationJUnit.render(report);
            });
        }
        out.flush();
        return ExitCodes.OK;
    }
}
