package dev.railyard.cli;

import dev.railyard.agent.Agent;
import dev.railyard.agent.AgentHttpServer;
import dev.railyard.agent.AgentJson;
import dev.railyard.agent.AgentStateFile;
import dev.railyard.agent.CounterRateDetector;
import dev.railyard.agent.GpuPresenceDetector;
import dev.railyard.agent.HealthTracker;
import dev.railyard.agent.KernelLinkEventDetector;
import dev.railyard.agent.KernelLogFollower;
import dev.railyard.agent.LinkDropDetector;
import dev.railyard.agent.LinkFlapDetector;
import dev.railyard.agent.PcieReplayDetector;
import dev.railyard.agent.Sampler;
import dev.railyard.agent.SlurmControl;
import dev.railyard.agent.SlurmDrainPolicy;
import dev.railyard.agent.ThermalDetector;
import dev.railyard.check.rules.GpuTemperatureRule;
import dev.railyard.check.CheckRunner;
import dev.railyard.collect.GpuCollector;
import dev.railyard.collect.InventoryCollector;
import dev.railyard.collect.SourceReads;
import dev.railyard.model.CheckId;
import dev.railyard.model.Severity;
import dev.railyard.model.ClusterSpec;
import dev.railyard.model.RailyardException;
import dev.railyard.nativelib.FfmNvml;
import dev.railyard.platform.Cancellation;
import dev.railyard.platform.Clock;
import dev.railyard.platform.CommandRunner;
import dev.railyard.platform.HostRoot;
import dev.railyard.platform.IoErrors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.Optional;
import java.util.concurrent.Callable;

@Command(name = "agent",
        mixinStandardHelpOptions = true,
        subcommands = AgentClearCommand.class,
        description = {"Watch this node's health continuously: Prometheus metrics, a status page, and Slurm drain/resume.",
                "",
                "Every interval the agent reads the GPUs (NVML), RDMA ports, netdevs and the kernel log, judges them with "
                        + "the same checks as 'railyard check' plus detectors over time (error counters rising, a link "
                        + "dropped or flapping, heat that lasts), and keeps each component healthy, degraded or unhealthy. "
                        + "A component gets better only after its readings were good for the whole hold-down time, or "
                        + "when an operator clears it ('railyard agent clear').",
                "",
                "With --slurm, an unhealthy node is drained with a reason starting 'railyard:' and resumed once healthy "
                        + "again; a drain an admin set is never touched.",
                "",
                "HTTP: /metrics (Prometheus text or OpenMetrics; GPU metrics under dcgm-exporter's names, ports and "
                        + "netdevs under node_exporter's, verdicts under railyard_*), /healthz, /api/health, "
                        + "/api/findings, /api/inventory (JSON with schemaVersion), and a status page at /. "
                        + "docs/metrics.md lists every metric."},
        footer = {"", "Examples:",
                "  railyard agent --spec cluster.yaml --slurm",
                "  railyard agent --listen 127.0.0.1:9410 --interval 5s",
                "  railyard agent --once --format json",
                "  railyard agent clear all --token-file /etc/railyard/agent.token",
                "", "Exit codes: 0 stopped cleanly (with --once: healthy), 1 with --once: unhealthy, 2 usage, 3 port in use."})
public final class AgentCommand implements Callable<Integer> {

    static final int DEFAULT_PORT = 9410;

    @Mixin
    RootOption root;

    @Mixin
    SpecOption specOption;

    @Option(names = "--node", paramLabel = "NAME", description = "This node's name in the spec and in Slurm (default: hostname).")
    String node;

    @Option(names = "--listen", paramLabel = "ADDR:PORT", defaultValue = "0.0.0.0:" + DEFAULT_PORT,
            description = "Where to serve HTTP (default: ${DEFAULT-VALUE}).")
    String listen;

    @Option(names = "--interval", paramLabel = "DURATION", defaultValue = "1s", converter = PositiveDurationConverter.class,
            description = "Time between samples (default: ${DEFAULT-VALUE}).")
    Duration interval;

    @Option(names = "--hold-down", paramLabel = "DURATION", defaultValue = "5m", converter = DurationConverter.class,
            description = "How long a component must read healthy before it counts as healthy again (default: ${DEFAULT-VALUE}).")
    Duration holdDown;

    @Option(names = "--link-drop", paramLabel = "DURATION", defaultValue = "30s", converter = DurationConverter.class,
            description = "A port that was ACTIVE and is down this long is unhealthy (default: ${DEFAULT-VALUE}).")
    Duration linkDrop;

    @Option(names = "--pcie-replays-per-hour", paramLabel = "N", defaultValue = "100",
            description = "A GPU's PCIe replay counter rising this much within an hour degrades it (default: ${DEFAULT-VALUE}).")
    long replaysPerHour;

    @Option(names = "--reread", paramLabel = "DURATION", defaultValue = "1m", converter = PositiveDurationConverter.class,
            description = "How often to re-read what rarely changes: PCI devices, host settings, RDMA device "
                    + "attributes and GID tables (default: ${DEFAULT-VALUE}); port state, counters and GPU readings "
                    + "are read every --interval.")
    Duration reread;

    @Option(names = "--flap-window", paramLabel = "DURATION", defaultValue = "10m", converter = PositiveDurationConverter.class,
            description = "Window for counting carrier changes (default: ${DEFAULT-VALUE}).")
    Duration flapWindow;

    @Option(names = "--flap-changes", paramLabel = "N", defaultValue = "6",
            description = "Carrier changes within the window that make a flapping link (default: ${DEFAULT-VALUE}).")
    int flapChanges;

    @Option(names = "--errors-per-hour", paramLabel = "N", defaultValue = "10",
            description = "Error counter increase within an hour that makes a port unhealthy (default: ${DEFAULT-VALUE}).")
    long errorsPerHour;

    @Option(names = "--read-deadline", paramLabel = "DURATION", defaultValue = "2s", converter = PositiveDurationConverter.class,
            description = "How long each source (GPUs, RDMA ports, netdevs, host settings, kernel log) may take to be read; "
                    + "one that takes longer is UNKNOWN while the others keep sampling (default: ${DEFAULT-VALUE}).")
    Duration readDeadline;

    @Option(names = "--state-file", paramLabel = "FILE",
            description = "Where the agent keeps what must survive a restart: how far in the kernel log a clear reached "
                    + "(default: /var/lib/railyard/agent-state.json on this node; none with --root).")
    Path stateFile;

    @Option(names = "--slurm", description = "Drain this node in Slurm when unhealthy, resume it when healthy again.")
    boolean slurm;

    @Option(names = "--scontrol", paramLabel = "PATH", defaultValue = "scontrol", description = "The scontrol to run (default: ${DEFAULT-VALUE}).")
    String scontrol;

    @Option(names = "--token-file", paramLabel = "FILE",
            description = "Token for POST /api/clear; the file must be readable by its owner only (chmod 600). Without it clearing over HTTP is off.")
    Path tokenFile;

    @Option(names = "--once", description = "Sample once, print the health and exit (1 when unhealthy): for scripts and cron.")
    boolean once;

    @Mixin
    FormatOption format;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (interval.isZero()) throw new RailyardException.Usage("--interval must be more than 0", "for example --interval 1s");
        if (readDeadline.isZero() || readDeadline.isNegative()) {
            throw new RailyardException.Usage("--read-deadline must be more than 0", "for example --read-deadline 2s");
        }
        HostRoot host = root.hostRoot();
        Optional<ClusterSpec> cluster = specOption.load();
        // the spec's agent.listen unless --listen was given
        if (!spec.commandLine().getParseResult().hasMatchedOption("--listen")) {
            cluster.flatMap(ClusterSpec::agent).ifPresent(a -> listen = a.listen());
        }
        String hostname = host.read("proc/sys/kernel/hostname").optional().map(String::strip).orElse("localhost");
        String name = node != null ? node : cluster.flatMap(c -> c.nodeForHost(hostname)).map(ClusterSpec.Node::name)
                .orElse(hostname);
        Optional<String> token = AgentToken.read(tokenFile);
        Clock clock = Clock.system();
        Optional<AgentStateFile> state = Optional.ofNullable(stateFile)
                .or(() -> host.isLive() ? Optional.of(Path.of("/var/lib/railyard/agent-state.json")) : Optional.empty())
                .map(AgentStateFile::new);
        try (KernelLogFollower kernelLog = KernelLogFollower.start(host, state)) {
            SourceReads reads = new SourceReads(readDeadline, clock);
            Agent agent = new Agent(sampler(host, cluster, name, kernelLog, clock, reads), new HealthTracker(name, holdDown),
                    slurm ? Optional.of(new SlurmDrainPolicy(new SlurmControl(CommandRunner.system(), scontrol), name))
                            : Optional.empty(), kernelLog, clock, interval,
                    new dev.railyard.agent.ActiveCheckHistory(host.resolve(dev.railyard.agent.ActiveCheckHistory.PATH))::last);
            if (once) return once(agent);
            return serve(agent, reads, token, clock);
        }
    }

    private Sampler sampler(HostRoot host, Optional<ClusterSpec> cluster, String name, KernelLogFollower kernelLog,
                            Clock clock, SourceReads reads) {
        GpuCollector gpus = nvmlOverride().map(p -> GpuCollector.keepingOpen(() -> FfmNvml.open(p)))
                .orElseGet(() -> host.isLive() ? GpuCollector.keepingOpen(FfmNvml::open) : GpuCollector.forRoot(host));
        double warnC = GpuTemperatureRule.warnC(cluster);
        return new Sampler(host, new InventoryCollector(gpus, kernelLog, clock,
                        (int) Math.max(1, reread.toMillis() / Math.max(1, interval.toMillis()))), CheckRunner.nodeChecks(),
                List.of(new CounterRateDetector(errorsPerHour), new LinkDropDetector(linkDrop, flapWindow, flapChanges),
                        new LinkFlapDetector(flapWindow, flapChanges),
                        new KernelLinkEventDetector(kernelLog, flapWindow, flapChanges), new PcieReplayDetector(replaysPerHour),
                        new ThermalDetector(warnC, Duration.ofMinutes(1)), new GpuPresenceDetector()),
                cluster, name, clock, Optional.of(reads));
    }

    /** RAILYARD_NVML names an NVML library file to load instead of the driver's (a test's fake, with --root). */
    private static Optional<Path> nvmlOverride() {
        String v = System.getenv("RAILYARD_NVML");
        return v == null || v.isBlank() ? Optional.empty() : Optional.of(Path.of(v));
    }

    private int once(Agent agent) {
        var s = agent.tick();
        PrintWriter out = spec.commandLine().getOut();
        if (format.json()) out.println(AgentJson.health(s));
        else {
            out.println(s.node() + ": " + s.health());
            s.components().stream().filter(c -> c.state() != dev.railyard.agent.HealthState.HEALTHY)
                    .forEach(c -> out.println("  " + c.state() + "  " + c.component() + "  " + c.reason()
                            + (c.action().isEmpty() ? "" : "\n" + fixLines(c.action()))));
            // tuning advice leaves the node healthy, and is listed so it still gets done
            s.sample().ifPresent(sample -> sample.findings().stream()
                    .filter(f -> f.severity().atLeast(Severity.WARN) && CheckId.isAdvice(f.id()))
                    .forEach(f -> out.println("  ADVICE  " + f.subject() + "  " + f.id() + ": " + f.observed()
                            + " (expected " + f.expected() + ")" + (f.remediation().isEmpty() ? "" : "\n"
                            + fixLines(f.remediation())))));
        }
        out.flush();
        return s.health() == dev.railyard.agent.HealthState.UNHEALTHY ? ExitCodes.FAIL_FINDING : ExitCodes.OK;
    }

    /** A multi-line fix under its "fix:" label, every line at the same indent, as check prints fixes. */
    static String fixLines(String action) {
        String pad = "         ";
        return "    fix: " + String.join("\n" + pad, action.lines().toList());
    }

    /**
     * Why a sample failed, in words (as the exit handler says a command's failure): a file it could not read with
     * its path and the reason, a Railyard error's own message, else an internal error with its message; never
     * Java's "java.io.UncheckedIOException: java.nio.file.AccessDeniedException: /sys/...".
     */
    static String sampleFailure(RuntimeException e) {
        if (e instanceof RailyardException re) return re.getMessage();
        Optional<java.nio.file.FileSystemException> fs = ExitCodes.ExceptionHandler.fileSystemCause(e);
        if (fs.isPresent()) return "cannot read " + fs.get().getFile() + ": " + IoErrors.describe(fs.get());
        if (e instanceof java.io.UncheckedIOException u) return IoErrors.describe(u.getCause());
        String message = e.getMessage();
        return "internal error: " + (message == null || message.isBlank() ? "no details (run with --debug for the stack trace)"
                : message) + "; the agent keeps sampling, and please report it";
    }

    private int serve(Agent agent, SourceReads reads, Optional<String> token, Clock clock) throws IOException {
        InetSocketAddress bind = ListenAddress.parse(listen);
        AgentHttpServer http;
        try {
            http = new AgentHttpServer(bind, agent, token, interval.multipliedBy(3).plusSeconds(5), clock::now);
        } catch (java.net.BindException e) {
            throw new RailyardException.MissingPrerequisite("cannot listen on " + listen + ": " + e.getMessage(),
                    "another agent or exporter holds the port: pick another with --listen ADDR:PORT");
        }
        PrintWriter err = spec.commandLine().getErr();
        try (http) {
            http.start();
            err.println("railyard agent: serving http://" + ListenAddress.bound(listen, http.address().getPort())
                    + "/metrics, sampling every " + interval.toMillis() + " ms"
                    + (slurm ? ", draining in Slurm when unhealthy" : ""));
            err.flush();
            // Ctrl-C or SIGTERM ends the loop between samples, never inside one: a read still in NVML when the JVM
            // exits meets NVML's teardown in the process's exit handlers and the JVM dies with SIGSEGV
            CountDownLatch stop = new CountDownLatch(1);
            try (Cancellation.Registration onStop = Interrupts.onStop(stop::countDown)) {
                while (stop.getCount() > 0 && !Thread.currentThread().isInterrupted()) {
                    long start = clock.nanoTime();
                    try {
                        agent.tick();
                    } catch (RuntimeException e) {
                        // one bad sample must not stop the agent: the page and /healthz show the staleness
                        err.println("railyard agent: sampling failed: " + sampleFailure(e));
                        if (ExitCodes.ExceptionHandler.debugRequested(spec.commandLine())) e.printStackTrace(err);
                        err.flush();
                    }
                    long left = interval.toNanos() - (clock.nanoTime() - start);
                    if (left > 0) stop.await(left, TimeUnit.NANOSECONDS);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        // a read past its deadline may still be inside NVML or the kernel: give it one more deadline to return
        reads.awaitIdle(readDeadline);
        return ExitCodes.OK;
    }
}
