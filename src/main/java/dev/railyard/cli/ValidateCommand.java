package dev.railyard.cli;

import dev.railyard.bench.tcp.Units;
import dev.railyard.cluster.ClusterValidation;
import dev.railyard.cluster.Endurance;
import dev.railyard.cluster.Launcher;
import dev.railyard.cluster.LocalLauncher;
import dev.railyard.cluster.Progress;
import dev.railyard.cluster.RunRecorder;
import dev.railyard.cluster.SameJvmLauncher;
import dev.railyard.cluster.ValidateSettings;
import dev.railyard.model.ClusterSpec;
import dev.railyard.model.RailyardException;
import dev.railyard.model.Severity;
import dev.railyard.model.ValidationReport;
import dev.railyard.platform.Clock;
import dev.railyard.platform.ValidateLock;
import dev.railyard.report.Json;
import dev.railyard.report.ValidationReportFiles;
import dev.railyard.spec.SpecHandoff;
import dev.railyard.spec.SpecReader;
import dev.railyard.report.ValidationJson;
import dev.railyard.store.History;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadLocalRandom;

@Command(name = "validate",
        mixinStandardHelpOptions = true,
        description = {
                "Prove a whole cluster works, in one run and one report.",
                "",
                "On every node (started there by the launcher): inventory and 'check'. Across nodes: cluster.mtu, "
                        + "cluster.versions, cluster.addresses, cluster.network.separation, cluster.pkey. On every compute network: "
                        + "TCP (and RDMA where bound) tests between every pair of nodes, in n-1 rounds of disjoint pairs "
                        + "(networks on separate NICs side by side); pairs below expect are retested once, and the report "
                        + "names the likely culprit (a node, a link or a whole rail) with the evidence and the fix. Then "
                        + "NCCL all_reduce across all GPUs, GPU copy bandwidth per node, and with --full storage per node.",
                "",
                "Without --spec, this machine is a one-node cluster: inventory, checks, a loopback TCP test, and the "
                        + "GPU and NCCL benchmarks if it has GPUs (without a GPU or driver they are skipped and said so, "
                        + "never passed).",
                "",
                "Each node gets its spec inline (check --spec-base64: the file gzipped and base64url-encoded), so "
                        + "nothing has to be copied first. Every result is stored as it comes (see 'railyard history'); "
                        + "Ctrl-C stops the remote steps and still writes the report of what was measured."},
        footer = {"", "Exit codes: 0 every node proven and no FAIL (an UNKNOWN reading is said loudly), 1 at least one",
                "FAIL or an interrupted run, 2 usage or spec error, 3 a prerequisite missing or a node not proven",
                "(unreachable, timed out).",
                "", "Examples:",
                "  railyard validate                       # this machine, one report directory",
                "  railyard validate --spec cluster.yaml   # every node over ssh",
                "  railyard validate --spec cluster.yaml --launcher slurm --full \\",
                "      --out /shared/reports/today",
                "  railyard validate --spec cluster.yaml --max-parallel 16 --step-timeout 2m \\",
                "      --format json > run.json",
                "  railyard validate --no-history --quick"})
public final class ValidateCommand implements Callable<Integer> {

    enum LauncherKind { LOCAL, SSH, SLURM }

    enum Format { TEXT, JSON }

    static final class Depth {
        @Option(names = "--quick", description = "Short tests: 2 s TCP pairs, no storage (the default).")
        boolean quick;

        @Option(names = "--full", description = "Longer tests: 10 s TCP pairs, TCP latency pairs, larger NCCL sizes, storage per node.")
        boolean full;
    }

    @Option(names = "--spec", paramLabel = "FILE", description = "The cluster spec (railyard init writes a starter). Without it: this machine alone.")
    Path specFile;

    @Option(names = "--launcher", paramLabel = "local|ssh|slurm",
            description = "How Railyard is started on the nodes (default: ssh with --spec, local without).")
    LauncherKind launcherKind;

    @ArgGroup(exclusive = true)
    Depth depth;

    @Option(names = "--soak", paramLabel = "DUR",
            description = "After the benchmarks, repeat NCCL all_reduce and the pair bandwidth tests for this long "
                    + "(e.g. 30m, 2h); every RDMA port's error counters are compared before and after, and each "
                    + "figure's min, median and spread judged (soak.busbw, soak.counters).")
    String soak;

    @Option(names = "--burn", paramLabel = "DUR", arity = "0..1", fallbackValue = "10m",
            description = "Before any fabric test, run 'railyard burn --duration DUR' on every node with GPUs, all "
                    + "nodes at once (default DUR: ${FALLBACK-VALUE}): nodes, then fabric.")
    String burn;

    @Option(names = "--out", paramLabel = "DIR", description = "Report directory (default: ./railyard-report-<run id>/).")
    Path out;

    @Option(names = "--max-parallel", defaultValue = "" + ValidateSettings.DEFAULT_MAX_PARALLEL, paramLabel = "N",
            description = "Remote steps running at once, over all nodes (default: ${DEFAULT-VALUE}).")
    int maxParallel;

    @Option(names = "--step-timeout", defaultValue = "5m", paramLabel = "DUR",
            description = "Each remote step is killed, with its process tree, after this long (default: ${DEFAULT-VALUE}).")
    String stepTimeout;

    @Option(names = "--db", paramLabel = "PATH",
            description = "History database (default: $XDG_DATA_HOME/railyard/history.db or ~/.local/share/railyard/history.db).")
    Path db;

    @Option(names = "--no-history", description = "Do not store this run in the history database.")
    boolean noHistory;

    @Option(names = "--format", defaultValue = "text", paramLabel = "text|json",
            description = "What to print: a summary (text) or the whole report (json) (default: ${DEFAULT-VALUE}).")
    Format format;

    @Mixin
    RemoteLauncherOptions remote = new RemoteLauncherOptions();

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        ValidateSettings settings = settings();
        Clock clock = Clock.system();
        String runId = runId(clock);
        Optional<String> specText = specText();
        ClusterSpec cluster = specText.map(t -> new SpecReader().read(specFile.toString(), t)).orElseGet(ValidateCommand::thisMachine);
        LauncherKind kind = launcherKind != null ? launcherKind : specFile != null ? LauncherKind.SSH : LauncherKind.LOCAL;
        Path dir = out != null ? out : Path.of("railyard-report-" + runId);
        PrintWriter err = spec.commandLine().getErr();
        PrintWriter stdout = spec.commandLine().getOut();
        // where the run writes is checked before anything runs, so a long run cannot end unable to write its report
        OutputChecks.directory("--out", dir);
        if (db != null && !noHistory) OutputChecks.file("--db", db, true);

        // one run per cluster from this machine, before any node is reached: a second would measure busy nodes
        try (ValidateLock held = ValidateLock.acquire(cluster.cluster(), runId)) {
            Launcher launcher = launcher(kind, specFile == null && launcherKind == null, cluster);
            RunRecorder recorder = recorder(err);
            Progress progress = terminal() ? Progress.terminal(err, clock) : Progress.lines(err, clock);
            ClusterValidation validation = new ClusterValidation(cluster, specText.map(SpecHandoff::encode), launcher, settings,
                    endurance(), recorder, progress, clock, runId);
            progress.note("validate " + runId + ": " + cluster.cluster() + ", " + cluster.nodes().size() + " node"
                    + (cluster.nodes().size() == 1 ? "" : "s") + " through the " + launcher.name() + " launcher"
                    + (specFile == null ? " (no --spec: this machine alone)" : ""));

            ValidationReport report;
            try {
                try {
                    // Ctrl-C or SIGTERM cancels the token: the run stops its steps and returns here with what it measured
                    report = validation.run(commandLine(), Interrupts.token());
                } catch (InterruptedException e) {
                    progress.finish();
                    err.println("railyard: validate interrupted: stopping remote steps, writing the report of what was measured");
                    err.flush();
                    report = validation.report(false);
                }
                if (Interrupts.requested() && report.complete()) progress.note("interrupted after the last step: the report is complete");
                List<Path> files = ValidationReportFiles.write(report, dir);
                print(stdout, err, report, files, dir);
            } finally {
                launcher.close();
                recorder.close();
            }
            return ExitCodes.of(report);
        }
    }

    private void print(PrintWriter stdout, PrintWriter err, ValidationReport report, List<Path> files, Path dir) {
        if (format == Format.JSON) {
            stdout.println(ValidationJson.render(report));
            stdout.flush();
            err.println("railyard: report in " + dir.toAbsolutePath());
            err.flush();
            return;
        }
        stdout.print(ValidateText.render(report));
        stdout.println();
        stdout.println("Report: " + dir.toAbsolutePath() + "/ (" + String.join(", ",
                files.stream().map(f -> f.getFileName().toString()).toList()) + ")");
        stdout.flush();
    }

    private ValidateSettings settings() {
        Duration timeout;
        try {
            timeout = Units.parseDuration(stepTimeout);
        } catch (IllegalArgumentException e) {
            throw new RailyardException.Usage("--step-timeout: " + e.getMessage(), "e.g. --step-timeout 2m");
        }
        if (timeout.isZero() || timeout.isNegative()) throw new RailyardException.Usage("--step-timeout must be positive", "e.g. --step-timeout 2m");
        if (maxParallel < 2) {
            throw new RailyardException.Usage("--max-parallel must be at least 2, got " + maxParallel,
                    "a pair test runs two steps at once (server and client)");
        }
        return ValidateSettings.of(depth != null && depth.full, maxParallel, timeout);
    }

    private Endurance endurance() {
        return new Endurance(window("--burn", burn), window("--soak", soak));
    }

    private static Optional<Duration> window(String option, String text) {
        if (text == null) return Optional.empty();
        Duration d;
        try {
            d = Units.parseDuration(text);
        } catch (IllegalArgumentException e) {
            throw new RailyardException.Usage(option + ": " + e.getMessage(), "e.g. " + option + " 30m");
        }
        if (d.isZero() || d.isNegative()) throw new RailyardException.Usage(option + " must be positive", "e.g. " + option + " 30m");
        return Optional.of(d);
    }

    private Optional<String> specText() {
        if (specFile == null) return Optional.empty();
        if (!Files.isRegularFile(specFile)) {
            throw new RailyardException.Usage("--spec " + specFile + " is not a file", "write one with: railyard init > cluster.yaml");
        }
        return Optional.of(SpecReader.text(specFile));
    }

    /** No spec: this machine as a one-node cluster named after its host. */
    static ClusterSpec thisMachine() {
        String host = hostname();
        return new ClusterSpec(host, "this machine (no --spec)", List.of(new ClusterSpec.Node(host, "127.0.0.1",
                Optional.empty(), Optional.empty())), Optional.empty(), List.of(), ClusterSpec.Expect.defaults());
    }

    private static String hostname() {
        try {
            String h = java.net.InetAddress.getLocalHost().getHostName();
            if (h != null && !h.isBlank()) return h;
        } catch (java.net.UnknownHostException e) {
            // fall through to the environment
        }
        return Optional.ofNullable(System.getenv("HOSTNAME")).filter(h -> !h.isBlank()).orElse("localhost");
    }

    /**
     * The one-node run without a spec keeps its light steps (inventory, check, loopback TCP) in this JVM: it is the
     * README's first command and should take seconds, not a JVM start per step. --launcher local forces child
     * processes for every step.
     */
    private Launcher launcher(LauncherKind kind, boolean sameJvm, ClusterSpec cluster) {
        if (sameJvm) return new SameJvmLauncher(ValidateCommand::execute, LocalLauncher.ofThisJvm());
        return switch (kind) {
            case LOCAL -> LocalLauncher.ofThisJvm();
            case SSH -> remote.ssh(cluster, spec.commandLine().getErr());
            case SLURM -> remote.slurm(cluster, spec.commandLine().getErr());
        };
    }

    private static int execute(List<String> args, PrintWriter out, PrintWriter err) {
        picocli.CommandLine cl = Main.commandLineFor(args.toArray(String[]::new));
        cl.setOut(out);
        cl.setErr(err);
        return cl.execute(args.toArray(String[]::new));
    }

    private RunRecorder recorder(PrintWriter err) {
        if (noHistory) return RunRecorder.none();
        Path path = db != null ? db : defaultDb();
        try {
            return History.open(path);
        } catch (RuntimeException e) {
            // a history the user named must work: say so before the run rather than run without it
            if (db != null) {
                throw new RailyardException.Usage("--db " + db + ": " + e.getMessage(),
                        "name a history database file in a writable place, or leave --db out");
            }
            // a history that cannot be opened must not cost the run: say so and go on without it
            err.println("railyard: note: history " + path + " not used: " + e.getMessage() + " (--no-history silences this)");
            err.flush();
            return RunRecorder.none();
        }
    }

    static Path defaultDb() {
        return History.defaultPath();
    }

    private List<String> commandLine() {
        List<String> argv = new ArrayList<>(List.of("railyard", "validate"));
        argv.addAll(spec.commandLine().getParseResult().originalArgs());
        argv.remove(1); // originalArgs starts with the subcommand itself
        return argv;
    }

    private static boolean terminal() {
        java.io.Console c = System.console();
        return c != null && c.isTerminal();
    }

    static String runId(Clock clock) {
        return DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC).format(clock.now())
                + "-" + String.format("%04x", ThreadLocalRandom.current().nextInt(0x10000));
    }
}
