package dev.railyard.cli;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import dev.railyard.bench.nccl.Collective;
import dev.railyard.bench.nccl.DataType;
import dev.railyard.bench.nccl.NcclBenchConfig;
import dev.railyard.bench.nccl.NcclBenchmark;
import dev.railyard.bench.nccl.NcclSession;
import dev.railyard.bench.nccl.NcclTable;
import dev.railyard.bench.nccl.RankGroup;
import dev.railyard.bench.nccl.TcpRendezvous;
import dev.railyard.check.NcclBenchVerdict;
import dev.railyard.check.rules.NcclBusbwRule;
import dev.railyard.model.Finding;
import dev.railyard.model.NcclBenchResult;
import dev.railyard.model.NcclSizeResult;
import dev.railyard.model.RailyardException;
import dev.railyard.nativelib.FfmNccl;
import dev.railyard.platform.Timings;
import dev.railyard.report.Json;
import dev.railyard.report.VerdictText;
import dev.railyard.platform.NodeLock;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.stream.IntStream;

@Command(name = "nccl",
        mixinStandardHelpOptions = true,
        description = {
                "NCCL collectives like nccl-tests, through libnccl directly.",
                "",
                "Measures NCCL collectives like nccl-tests' *_perf programs, by calling libnccl and libcudart "
                        + "directly (nothing to build).",
                "",
                "One process can drive several local GPUs (-g), or each process is one rank: give --rank/--nranks "
                        + "and a --rendezvous address (or run under mpirun/srun, whose rank variables are read), or "
                        + "let --procs N start N local ranks.",
                "",
                "Columns as in nccl-tests: time per iteration in microseconds (CUDA events, slowest rank), "
                        + "algbw = bytes / time, busbw = algbw x the collective's factor (2*(n-1)/n for all_reduce), "
                        + "#wrong = elements that did not verify (N/A with -c 0). Compare runs by busbw at the "
                        + "largest size, not by the average."},
        footer = {"", "Examples:",
                "  railyard bench nccl all_reduce -b 8 -e 2G -f 2 -g 4",
                "  railyard bench nccl all_gather -b 64M -e 1G -f 2 --procs 4",
                "  mpirun -np 16 -H n1:8,n2:8 railyard bench nccl -b 1G -e 1G --rendezvous n1:29500",
                "", "Environment:",
                "  RAILYARD_CUDART, RAILYARD_NCCL  the libcudart / libnccl file to use instead of searching",
                "                                  the usual names (e.g. a NCCL build under test)"})
public final class BenchNcclCommand implements Callable<Integer> {

    @Parameters(index = "0", defaultValue = "all_reduce", paramLabel = "COLLECTIVE",
            description = "all_reduce (default), all_gather, reduce_scatter, broadcast, reduce, alltoall, sendrecv.")
    String collective;

    @Option(names = {"-b", "--minbytes"}, defaultValue = "8", converter = ByteSizeConverter.class, description = "Smallest size (default ${DEFAULT-VALUE}).")
    long minBytes;

    @Option(names = {"-e", "--maxbytes"}, defaultValue = "128M", converter = ByteSizeConverter.class, description = "Largest size (default ${DEFAULT-VALUE}).")
    long maxBytes;

    @Option(names = {"-f", "--stepfactor"}, defaultValue = "2", description = "Multiply the size by this each step (default ${DEFAULT-VALUE}).")
    int stepFactor;

    @Option(names = {"-i", "--stepbytes"}, defaultValue = "0", converter = ByteSizeConverter.class, description = "Add this to the size each step instead.")
    long stepBytes;

    @Option(names = {"-g", "--ngpus"}, defaultValue = "1", description = "GPUs this process drives, devices 0..N-1 (default ${DEFAULT-VALUE}).")
    int ngpus;

    @Option(names = {"-w", "--warmup_iters"}, defaultValue = "5", description = "Untimed iterations per size before the timed ones (default ${DEFAULT-VALUE}).")
    int warmup;

    @Option(names = {"-n", "--iters"}, defaultValue = "20", description = "Timed iterations per size (default ${DEFAULT-VALUE}).")
    int iters;

    @Option(names = {"-d", "--datatype"}, defaultValue = "float", description = "Element type: float (default), half, bfloat16, double, int8, uint8, int32, uint32, int64, uint64.")
    String datatype;

    @Option(names = {"-o", "--op"}, defaultValue = "sum", description = "Reduction: sum (default), prod, max, min, avg.")
    String op;

    // not --root: everywhere else --root names a captured tree
    @Option(names = {"-r", "--root-rank"}, defaultValue = "0", description = "Root rank for broadcast and reduce (default ${DEFAULT-VALUE}).")
    int root;

    @Option(names = {"-c", "--check"}, defaultValue = "1", description = "1 (default) verifies each size once after timing it (#wrong); 0 skips that.")
    int check;

    @Option(names = "--jit-warmup", defaultValue = "20000", description = "Untimed launches of the smallest message before the sweep, then 160 untimed passes through the measuring code, so the JVM has compiled it and no one-time JVM work lands in a timed loop. Scaled to the sizes: no launches when every size is 256M or more, no passes when the sweep is too short to need them; 0 skips both (default ${DEFAULT-VALUE}).")
    int jitWarmup;

    @Option(names = "--procs", defaultValue = "0", description = "Start this many local processes, one rank (and GPU) each.")
    int procs;

    @Option(names = "--procs-timeout", defaultValue = "1800", paramLabel = "S",
            description = "With --procs: stop every rank after S seconds (default ${DEFAULT-VALUE}).")
    int procsTimeout;

    @Option(names = "--expect-busbw", paramLabel = "GB/s",
            description = "Pass at this busbw (GB/s, as the table prints it) or more at the largest size; default: the spec's expect.nccl_busbw_gbytes_per_s.")
    Double expectBusbw;

    @Option(names = "--rank", description = "This process's rank (default: from OMPI_COMM_WORLD_RANK, SLURM_PROCID, PMI_RANK).")
    Integer rank;

    @Option(names = "--nranks", description = "Number of ranks (default: from OMPI_COMM_WORLD_SIZE, SLURM_NTASKS, PMI_SIZE).")
    Integer nranks;

    @Option(names = "--device", description = "CUDA device of this rank (default: the local rank).")
    Integer device;

    @Option(names = "--rendezvous", paramLabel = "HOST:PORT", description = "Where rank 0 hands out the NCCL id (default: $RAILYARD_RENDEZVOUS or $MASTER_ADDR:$MASTER_PORT).")
    String rendezvous;

    @Option(names = "--timings", description = "Print where the time went (JVM start, CUDA and NCCL load, communicator "
            + "set-up, allocation, warm-up, timed loops, data check, output) to standard error; RAILYARD_TIMINGS=1 does "
            + "the same.")
    boolean timingsWanted;

    @Mixin
    FormatOption output = new FormatOption();

    @Mixin
    SpecOption specOption = new SpecOption();

    @Mixin
    NodeLockOption nodeLock;

    @Spec
    CommandSpec spec;

    private final Timings timings;

    public BenchNcclCommand() {
        this(Timings.off());
    }

    /** With Main's timings, which started before picocli did. */
    BenchNcclCommand(Timings timings) {
        this.timings = timings;
    }

    @Override
    public Integer call() throws Exception {
        // every argument is judged before a library is loaded or a GPU touched
        if (ngpus < 1) throw new RailyardException.Usage("-g " + ngpus + ": a run needs at least one GPU", "e.g. -g 2");
        if (procs < 0) throw new RailyardException.Usage("--procs " + procs + " is negative", "e.g. --procs 4");
        if (procsTimeout < 1) throw new RailyardException.Usage("--procs-timeout must be at least 1 second", "e.g. --procs-timeout 600");
        if (root < 0) throw new RailyardException.Usage("--root-rank " + root + " is negative", "ranks count from 0");
        ExpectOption.requirePositive("--expect-busbw", expectBusbw, "40");
        NcclBenchConfig cfg = config();
        Optional<Double> floor = Optional.ofNullable(expectBusbw)
                .or(() -> specOption.load().flatMap(c -> c.expect().ncclBusbwGBps()));
        if (procs > 0) {
            checkRoot(cfg, procs);
            NcclSession.open().close(); // a missing library is said once here, not once per rank
            try (NodeLock held = nodeLock.acquire("bench nccl --procs " + procs)) {
                    return LocalRankLauncher.launch(procs, spec.commandLine().getParseResult().originalArgs(),
                        Duration.ofSeconds(procsTimeout), spec.commandLine().getErr());
            }
        }
        RankEnvironment env = RankEnvironment.detect(rank, nranks, device, rendezvous, System::getenv);
        checkRoot(cfg, env.multiProcess() ? env.nranks() : ngpus);
        // one rank of many (mpirun, srun, --procs) runs beside its node's other ranks: the launcher of the job, or
        // a single process driving every GPU, holds the node's lock
        try (NodeLock held = env.multiProcess() ? null : nodeLock.acquire("bench nccl")) {
            return measure(cfg, floor, env);
        }
    }

    /** Before the node's lock: a root rank that does not exist is a usage error (2), not a busy node (3). */
    private void checkRoot(NcclBenchConfig cfg, int ranks) {
        if (root >= ranks && (cfg.collective() == Collective.BROADCAST || cfg.collective() == Collective.REDUCE)) {
            throw new RailyardException.Usage("--root-rank " + root + " but there are " + ranks + " ranks",
                    "use a rank from 0 to " + (ranks - 1));
        }
    }

    private Integer measure(NcclBenchConfig cfg, Optional<Double> floor, RankEnvironment env) throws Exception {
        try (NcclSession session = timings.time("CUDA runtime and NCCL libraries load", () -> NcclSession.open())
                .timed(timings)) {
            long buffer = Math.max(cfg.maxBytes(), 16) + NcclSession.BUFFER_SLACK;
            RankGroup group;
            int total;
            if (env.multiProcess()) {
                TcpRendezvous tcp = TcpRendezvous.join(env.rendezvous(), env.rank(), env.nranks(),
                        () -> session.nccl().uniqueId(), Duration.ofMinutes(2));
                session.initRank(env.rank(), env.nranks(), tcp.uniqueId(), env.device(), buffer);
                group = tcp;
                total = env.nranks();
            } else {
                session.initAll(IntStream.range(0, ngpus).toArray(), buffer);
                group = RankGroup.singleProcess();
                total = ngpus;
            }
            try (group) {
                return run(session, group, cfg, total, floor, env.span());
            }
        }
    }

    private int run(NcclSession session, RankGroup group, NcclBenchConfig cfg, int total, Optional<Double> floor,
                    NcclBusbwRule.Span span) {
        String version = FfmNccl.versionText(session.nccl().version());
        List<String> devices = session.ranks().stream().map(r -> r.device() + " [" + r.pciBusId() + "]").toList();
        PrintWriter out = spec.commandLine().getOut();
        boolean text = output.text() && group.reports();
        NcclTable table = new NcclTable(out);
        if (text) table.header(cfg, total, devices, version);
        List<NcclSizeResult> rows = new CopyOnWriteArrayList<>();
        AtomicBoolean reported = new AtomicBoolean();
        // Ctrl-C or SIGTERM: a collective inside NCCL cannot be stopped where it is, so the rows measured so far are
        // printed, marked incomplete, and the process ends with 1 as docs/exit-codes.md says of a benchmark cut short.
        // A run that had already printed its own report is left to return its code.
        NcclBenchResult result;
        try (dev.railyard.platform.Cancellation.Registration onStop = Interrupts.onStop(() -> {
            if (reported.get()) return;
            report(out, text, group, table, cfg, total, devices, version, rows, false, reported);
            Main.endNow(ExitCodes.FAIL_FINDING, "");
        })) {
            new NcclBenchmark(session.cuda(), session.nccl(), session.ranks(), total, group, cfg, timings).run(row -> {
                rows.add(row);
                if (text) table.row(row);
            });
            result = report(out, text, group, table, cfg, total, devices, version, rows, true, reported);
        }
        long output = System.nanoTime();
        List<Finding> findings = NcclBenchVerdict.judge(subject(session), result, floor, span);
        if (!group.reports()) return ExitCodes.of(findings);
        if (text) {
            out.println();
            out.print(VerdictText.render(findings));
        } else {
            out.println(Json.write(new Report(result, findings)));
        }
        out.flush();
        timings.record("output (table or JSON, findings)", output);
        return ExitCodes.of(findings);
    }

    /** What --format json prints: the sweep's fields, then the findings on it. */
    record Report(@JsonUnwrapped NcclBenchResult result, List<Finding> findings) {}

    private static String subject(NcclSession session) {
        return session.ranks().size() == 1 ? "rank " + session.ranks().getFirst().rank() + " of the run"
                : session.ranks().size() + " GPUs of this node";
    }

    private NcclBenchResult report(PrintWriter out, boolean text, RankGroup group, NcclTable table, NcclBenchConfig cfg,
                                   int total, List<String> devices, String version, List<NcclSizeResult> rows,
                                   boolean complete, AtomicBoolean reported) {
        NcclBenchResult result = new NcclBenchResult(cfg.collective().label, total, devices, version, List.copyOf(rows),
                averageBusbw(rows), complete);
        if (!reported.compareAndSet(false, true)) return result;
        if (text) table.footer(result);
        // JSON carries the findings, so only an interrupted run prints its rows here
        else if (group.reports() && !complete) out.println(Json.write(new Report(result, List.of())));
        out.flush();
        return result;
    }

    private static double averageBusbw(List<NcclSizeResult> rows) {
        return rows.stream().flatMap(r -> r.inPlace().isPresent() ? java.util.stream.Stream.of(r.outOfPlace(), r.inPlace().get())
                : java.util.stream.Stream.of(r.outOfPlace())).mapToDouble(NcclSizeResult.Timing::busbwGBps).average().orElse(0);
    }

    private NcclBenchConfig config() {
        try {
            return new NcclBenchConfig(Collective.parse(collective), DataType.parse(datatype), NcclBenchConfig.opCode(op),
                    op.toLowerCase(java.util.Locale.ROOT), root, minBytes, maxBytes, stepFactor, stepBytes, warmup,
                    iters, check != 0, jitWarmup);
        } catch (IllegalArgumentException e) {
            throw new RailyardException.Usage(e.getMessage(), "see railyard bench nccl --help");
        }
    }

    /** Where this process sits among the ranks, from flags or the launcher's variables. */
    record RankEnvironment(boolean multiProcess, int rank, int nranks, int device, InetSocketAddress rendezvous) {

        static RankEnvironment detect(Integer rank, Integer nranks, Integer device, String rendezvous,
                                      Function<String, String> environment) {
            Integer r = rank != null ? rank : number(environment, "OMPI_COMM_WORLD_RANK", "SLURM_PROCID", "PMI_RANK");
            Integer n = nranks != null ? nranks : number(environment, "OMPI_COMM_WORLD_SIZE", "SLURM_NTASKS", "PMI_SIZE");
            if (n != null && n < 1) throw new RailyardException.Usage("the number of ranks is " + n, "--nranks must be 1 or more");
            if (r == null || n == null || n <= 1) {
                if (rank != null && (nranks == null || nranks <= 1) && rank != 0) {
                    throw new RailyardException.Usage("--rank " + rank + " needs --nranks above it", "e.g. --rank 1 --nranks 2");
                }
                return new RankEnvironment(false, 0, 1, 0, null);
            }
            if (r < 0 || r >= n) {
                throw new RailyardException.Usage("rank " + r + " is outside 0.." + (n - 1) + " (" + n + " ranks)",
                        "give --rank from 0 to --nranks - 1, or check the launcher's rank variables");
            }
            Integer local = device != null ? device
                    : number(environment, "OMPI_COMM_WORLD_LOCAL_RANK", "SLURM_LOCALID", "MPI_LOCALRANKID");
            if (local != null && local < 0) throw new RailyardException.Usage("--device " + local + " is negative", "CUDA devices count from 0");
            String addr = rendezvous != null ? rendezvous : environment.apply("RAILYARD_RENDEZVOUS");
            if (addr == null && environment.apply("MASTER_ADDR") != null) {
                String port = environment.apply("MASTER_PORT");
                addr = environment.apply("MASTER_ADDR") + ":" + (port == null ? "29500" : port);
            }
            if (addr == null) {
                throw new RailyardException.Usage("rank " + r + " of " + n + " needs a rendezvous address",
                        "add --rendezvous HOST:PORT (rank 0's host), or set RAILYARD_RENDEZVOUS");
            }
            return new RankEnvironment(true, r, n, local == null ? r : local, address(addr));
        }

        /**
         * Where the ranks are: one process drives this node's GPUs; ranks that meet at a rendezvous off this host
         * (mpirun, srun over several nodes) may be anywhere.
         */
        NcclBusbwRule.Span span() {
            boolean here = !multiProcess || (rendezvous.getAddress() != null && rendezvous.getAddress().isLoopbackAddress());
            return here ? NcclBusbwRule.Span.ONE_NODE : NcclBusbwRule.Span.NODES;
        }

        /** HOST:PORT, [IPv6]:PORT; a name that does not resolve is a usage error here, not a hang at the rendezvous. */
        static InetSocketAddress address(String addr) {
            int colon = addr.lastIndexOf(':');
            String hint = "give rank 0's host and a free port, e.g. --rendezvous n1:29500";
            if (colon <= 0 || colon == addr.length() - 1) throw new RailyardException.Usage("rendezvous '" + addr + "' is not HOST:PORT", hint);
            String host = addr.substring(0, colon);
            if (host.startsWith("[") && host.endsWith("]")) host = host.substring(1, host.length() - 1);
            int port;
            try {
                port = Integer.parseInt(addr.substring(colon + 1));
            } catch (NumberFormatException e) {
                throw new RailyardException.Usage("rendezvous '" + addr + "': the port is not a number", hint);
            }
            if (port < 1 || port > 65535) throw new RailyardException.Usage("rendezvous '" + addr + "': the port is not 1..65535", hint);
            InetSocketAddress isa = new InetSocketAddress(host, port);
            if (isa.isUnresolved()) {
                throw new RailyardException.Usage("rendezvous host '" + host + "' does not resolve", hint);
            }
            return isa;
        }

        private static Integer number(Function<String, String> environment, String... names) {
            for (String name : names) {
                String v = environment.apply(name);
                if (v == null || v.isBlank()) continue;
                try {
                    return Integer.valueOf(v.trim());
                } catch (NumberFormatException e) {
                    throw new RailyardException.Usage(name + "='" + v + "' is not a number",
                            "unset it, or give --rank and --nranks on the command line");
                }
            }
            return null;
        }
    }
}
