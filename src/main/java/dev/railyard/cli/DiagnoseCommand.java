package dev.railyard.cli;

import dev.railyard.platform.IoErrors;
import dev.railyard.diagnose.Diagnoser;
import dev.railyard.diagnose.DiagnoseTargets;
import dev.railyard.diagnose.DiagnosisReport;
import dev.railyard.diagnose.LargeInput;
import dev.railyard.model.ClusterSpec;
import dev.railyard.model.RailyardException;
import dev.railyard.report.Json;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;

@Command(name = "diagnose",
        mixinStandardHelpOptions = true,
        description = {
                "Explain perftest, nccl-tests, ibstat, iperf3, sockperf, fio or dmesg output, with fixes.",
                "",
                "Read the output of perftest, nccl-tests, ibstat, ibv_devinfo, show_gids, iperf3, sockperf, fio "
                        + "or a kernel log (dmesg / journalctl -k), say what it shows, and print the fix for each problem, "
                        + "then the numbers it read.",
                "",
                "Exit 1 when a problem is a FAIL, 0 otherwise, 2 when the input cannot be read or recognised."},
        footer = {"", "Examples:",
                "  ib_write_bw -d mlx5_0 10.0.0.2 2>&1 | railyard diagnose - --rate 100",
                "  railyard diagnose all_reduce.log --busbw 180",
                "  railyard diagnose ibstat.txt",
                "  dmesg | railyard diagnose - --format json"})
public final class DiagnoseCommand implements Callable<Integer> {

    private static final ClusterSpec.Expect DEFAULTS = ClusterSpec.Expect.defaults();

    @Parameters(index = "0", paramLabel = "FILE|-", description = "A file with the tool's output, or - for stdin.")
    String input;

    @Mixin
    FormatOption output = new FormatOption();

    @Option(names = "--rate", paramLabel = "GBPS",
            description = "The port's link rate in Gb/s (40 for 40GbE / QDR, 100, 200, 400) to judge perftest "
                    + "bandwidth against; without it only a header that states the speed gives one.")
    Double rateGbps;

    @Option(names = "--latency-us", paramLabel = "US",
            description = "Highest acceptable perftest latency in µs (default: the spec default, ${DEFAULT-VALUE}).")
    double latencyUs = DEFAULTS.rdmaLatencyUs();

    @Option(names = "--efficiency", paramLabel = "FRACTION",
            description = "Share of the link rate perftest must reach (default: ${DEFAULT-VALUE}).")
    double efficiency = DEFAULTS.rdmaBwEfficiency();

    @Option(names = "--busbw", paramLabel = "GB/S",
            description = "Lowest acceptable nccl-tests busbw at the largest size, in GB/s as nccl-tests prints it.")
    Double busbwGBps;

    @Option(names = "--fabric", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "NCCL should use IB/RoCE, so NET/Socket is a FAIL (default). --no-fabric for a "
                    + "single-node or TCP-only run.")
    boolean fabric;

    @Option(names = "--seq-mibps", paramLabel = "MIB/S",
            description = "Lowest acceptable fio sequential bandwidth in MiB/s (bench.storage.seq).")
    Double seqMiBps;

    @Spec
    CommandSpec spec;

    InputStream stdin() {
        return System.in;
    }

    @Override
    public Integer call() {
        DiagnoseTargets targets = targets();
        PrintWriter out = spec.commandLine().getOut();
        DiagnosisReport report;
        try {
            LargeInput.Result in = read(targets);
            report = in.report();
            if (in.cut()) report = report.withIgnored("everything after the first " + (CAP >> 20) + " MB");
        } catch (RailyardException.Usage e) {
            if (!output.json()) throw e;
            // scripts parse stdout: they get an object saying why, and the exit code says it was not judged
            out.print(Json.write(new DiagnoseJson.Unrecognised(false, e.getMessage(), e.hint())) + "\n");
            out.flush();
            return ExitCodes.USAGE;
        }
        out.print(output.json() ? Json.write(DiagnoseJson.of(report)) + "\n"
                : DiagnoseText.render(report));
        out.flush();
        return report.failed() ? ExitCodes.FAIL_FINDING : ExitCodes.OK;
    }

    DiagnoseTargets targets() {
        positive("--rate", rateGbps);
        positive("--busbw", busbwGBps);
        positive("--seq-mibps", seqMiBps);
        positive("--latency-us", latencyUs);
        if (!(efficiency > 0 && efficiency <= 1)) {
            throw new RailyardException.Usage("--efficiency must be in (0, 1], got " + efficiency,
                    "for example --efficiency 0.9 (90 % of the link rate)");
        }
        DiagnoseTargets d = DiagnoseTargets.from(DEFAULTS);
        return new DiagnoseTargets(Optional.ofNullable(rateGbps), efficiency, latencyUs,
                Optional.ofNullable(busbwGBps).or(d::ncclBusbwGBps), fabric,
                Optional.ofNullable(seqMiBps).or(d::storageSeqMiBps));
    }

    private static void positive(String option, Double value) {
        if (value != null && !(value > 0 && Double.isFinite(value))) {
            throw new RailyardException.Usage(option + " must be a positive number, got " + value,
                    "for example --rate 40 for a 40G port");
        }
    }

    /** Real tool output is kilobytes; a log of a busy week is megabytes. Beyond this, the rest is not read. */
    static final int CAP = 64 << 20;

    boolean stdinIsTerminal() {
        java.io.Console c = System.console();
        return c != null && c.isTerminal();
    }

    private LargeInput.Result read(DiagnoseTargets targets) {
        boolean stdin = input.equals("-");
        String name = stdin ? "stdin" : input;
        if (stdin && stdinIsTerminal()) {
            throw new RailyardException.Usage("stdin is a terminal, not a tool's output",
                    "pipe the output in (ib_write_bw ... 2>&1 | railyard diagnose -) or give the file it was saved in");
        }
        try (InputStream in = stdin ? stdin() : Files.newInputStream(Path.of(input))) {
            return LargeInput.diagnose(in, name, CAP, Diagnoser.standard(), targets);
        } catch (IOException | RuntimeException e) {
            if (e instanceof RailyardException re) {
                if (re.getMessage().endsWith(" is empty")) {
                    throw new RailyardException.Usage(name + " is empty", stdin
                            ? "pipe the tool's output in: ib_write_bw ... 2>&1 | railyard diagnose -"
                            : "give the file the tool's output was saved in");
                }
                throw re;
            }
            throw new RailyardException.Usage("cannot read " + name + ": " + IoErrors.describe(e),
                    "give a readable file, or - to read stdin", e);
        }
    }
}
