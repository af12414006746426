package dev.railyard.cli;

import dev.railyard.diagnose.Diagnoser;
import dev.railyard.diagnose.Diagnosis;
import dev.railyard.diagnose.DiagnosisReport;
import dev.railyard.model.RailyardException;
import dev.railyard.report.Json;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

@Command(name = "diagnose",
        mixinStandardHelpOptions = true,
        description = {
                "Read the output of perftest, nccl-tests, ibstat, ibv_devinfo, show_gids, iperf3, sockperf, fio",
                "or a kernel log (dmesg / journalctl -k), say what it shows, and print the fix for each problem.",
                "",
                "Exit 1 when a problem is a FAIL, 0 otherwise, 2 when the input cannot be read or recognised."},
        footer = {"", "Examples:",
                "  ib_write_bw -d mlx5_0 10.0.0.2 2>&1 | railyard diagnose -",
                "  railyard diagnose ibstat.txt",
                "  dmesg | railyard diagnose - --format json"})
public final class DiagnoseCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "FILE|-", description = "A file with the tool's output, or - for stdin.")
    String input;

    @Option(names = "--format", defaultValue = "text", paramLabel = "text|json",
            description = "Output format (default: ${DEFAULT-VALUE}).")
    OutputFormat format;

    @Spec
    CommandSpec spec;

    InputStream stdin() {
        return System.in;
    }

    @Override
    public Integer call() {
        if (format == OutputFormat.JUNIT) {
            throw new RailyardException.Usage("--format junit is for check results", "use text or json");
        }
        DiagnosisReport report = Diagnoser.standard().diagnose(read());
        PrintWriter out = spec.commandLine().getOut();
        out.print(format == OutputFormat.JSON ? Json.write(report) + "\n" : text(report));
        out.flush();
        return report.failed() ? ExitCodes.FAIL_FINDING : ExitCodes.OK;
    }

    private String read() {
        try {
            byte[] bytes = input.equals("-") ? stdin().readAllBytes() : Files.readAllBytes(Path.of(input));
            return new String(bytes, StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            throw new RailyardException.Usage("cannot read " + (input.equals("-") ? "stdin" : input) + ": " + e,
                    "give a readable file, or - to read stdin", e);
        }
    }

    static String text(DiagnosisReport report) {
        StringBuilder sb = new StringBuilder("Recognised: ").append(report.tool().label()).append('\n');
        for (Diagnosis d : report.diagnoses()) {
            sb.append(String.format("%-7s %s%s%n", d.severity(), d.subject(),
                    d.lineNumber() > 0 ? " (line " + d.lineNumber() + ")" : ""));
            sb.append("        ").append(d.cause()).append('\n');
            if (!d.line().isEmpty()) sb.append("        evidence: ").append(d.line()).append('\n');
            if (!d.fix().isEmpty()) sb.append("        fix: ").append(d.fix()).append('\n');
        }
        sb.append("Verdict: ").append(report.worst()).append('\n');
        return sb.toString();
    }
}
