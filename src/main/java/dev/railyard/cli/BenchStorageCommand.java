package dev.railyard.cli;

import dev.railyard.report.VerdictText;
import dev.railyard.bench.ToolParseException;
import dev.railyard.model.FioDirection;
import dev.railyard.model.FioJob;
import dev.railyard.model.FioResult;
import dev.railyard.bench.fio.FioRunner;
import dev.railyard.bench.fio.FioSeqJob;
import dev.railyard.check.StorageSeqVerdict;
import dev.railyard.check.SpecLoader;
import dev.railyard.model.Finding;
import dev.railyard.model.RailyardException;
import dev.railyard.model.Severity;
import dev.railyard.platform.CommandRunner;
import dev.railyard.report.Json;
import dev.railyard.spec.SpecReader;
import dev.railyard.platform.NodeLock;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.time.Duration;
import java.util.concurrent.Callable;

@Command(name = "storage",
        mixinStandardHelpOptions = true,
        description = {
                "Sequential write and read throughput with fio (the jobs of a classic NVMe bring-up).",
                "",
                "Sequential write then read of one file with fio (1 MiB blocks, O_DIRECT, one job, "
                        + "time-limited, --output-format=json). Prints MB/s (10^6) and MiB/s (what fio's text output shows), "
                        + "IOPS and completion latency, and judges bench.storage.seq against --expect-mbps or the spec's "
                        + "expect.storage_seq_mbps.",
                "",
                "With --dir, a scratch file " + BenchStorageCommand.SCRATCH + " is written there and removed after, "
                        + "Ctrl-C included. A --file that already exists is overwritten only with --force.",
                "",
                "Nothing is written unless the disk has room for --size and a margin (5 %%, at least 16 MiB; --margin "
                        + "sets it). "
                        + "Without --size the file is as large as memory (so reads cannot come from the page cache), "
                        + "at most a quarter of the free space and 16G."},
        footer = {"", "Exit codes: 0 ok, 1 a FAIL (fio failed or too slow), 2 usage, 3 fio missing.",
                "", "Examples:",
                "  railyard bench storage --dir /mnt/nvme",
                "  railyard bench storage --file /scratch/ry.dat --size 4G --expect-mbps 2000",
                "  railyard bench storage --dir /dev/shm --no-direct --format json"})
public final class BenchStorageCommand implements Callable<Integer> {

    /** The file name that marks a scratch file as ours, so a rerun may overwrite it without --force. */
    static final String SCRATCH = "railyard-bench-storage.dat";

    static final class Target {
        @Option(names = "--dir", paramLabel = "DIR", description = "Directory to test in (default: the current one).")
        Path dir;

        @Option(names = "--file", paramLabel = "FILE", description = "File to test with (overwritten!).")
        Path file;
    }

    @ArgGroup(exclusive = true)
    Target target;

    @Option(names = "--size", paramLabel = "SIZE",
            description = "File size, e.g. 4G (default: memory size, at most a quarter of the free space and 16G).")
    String size;

    @Option(names = "--runtime", defaultValue = "10", paramLabel = "S", description = "Seconds per job at most (default: ${DEFAULT-VALUE}).")
    int runtime;

    @Option(names = "--margin", paramLabel = "SIZE",
            description = "Free space to leave beside the file (default: 5 %% of --size, at least 16M; 0 for none).")
    String margin;

    @Option(names = "--bs", defaultValue = "1M", paramLabel = "SIZE", description = "Block size (default: ${DEFAULT-VALUE}).")
    String blockSize;

    @Option(names = "--direct", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "O_DIRECT, bypassing the page cache (default: on; --no-direct for tmpfs).")
    boolean direct;

    @Option(names = "--force", description = "Overwrite a --file that exists.")
    boolean force;

    @Option(names = "--expect-mbps", paramLabel = "MB/s", description = "Pass at this MB/s (10^6 bytes/s) or more, both ways.")
    Double expectMbps;

    @Mixin
    SpecOption specOption = new SpecOption();

    @Mixin
    FormatOption output = new FormatOption();

    @Spec
    CommandSpec spec;

    private final CommandRunner runner;
    private final SpecLoader specLoader;
    private final StorageRoom room;
    private final Duration progressEvery;

    public BenchStorageCommand() {
        this(CommandRunner.system(), file -> new SpecReader().read(file), StorageRoom.live(), Duration.ofSeconds(5));
    }

    BenchStorageCommand(CommandRunner runner, SpecLoader specLoader, StorageRoom room, Duration progressEvery) {
        this.runner = runner;
        this.specLoader = specLoader;
        this.room = room;
        this.progressEvery = progressEvery;
    }

    /** One direction's numbers as printed. */
    record Measured(String job, String commandLine, double megabytesPerSecond, double mebibytesPerSecond, double iops,
                    OptionalDouble clatMeanUs, OptionalDouble clatP99Us) {}

    /** What --format json prints. */
    record Report(String file, List<Measured> results, boolean complete, List<Finding> findings) {}

    @Mixin
    NodeLockOption nodeLock;

    @Override
    public Integer call() {
        if (runtime < 1) throw new RailyardException.Usage("--runtime must be at least 1 second", "e.g. --runtime 10");
        if (size != null) checkSize("--size", size);
        checkSize("--bs", blockSize);
        if (margin != null) checkSize("--margin", margin, true);
        if (size != null && ByteSizeConverter.parse(blockSize) > ByteSizeConverter.parse(size)) {
            throw new RailyardException.Usage("--bs " + blockSize + " is larger than --size " + size
                    + ": fio could not write one block", "give a --bs of at most the --size, e.g. --bs 1M");
        }
        ExpectOption.requirePositive("--expect-mbps", expectMbps, "2000");
        Optional<Double> expect = Optional.ofNullable(expectMbps).or(() -> specOption.load(specLoader)
                .flatMap(c -> c.expect().storageSeqMBps()));
        Path file = file();
        boolean existed = Files.exists(file);
        refuseForeign(file, existed);
        boolean remove = !existed || file.getFileName().toString().equals(SCRATCH);
        refuseDirectOnTmpfs(file);
        // the node's lock after every argument and the file's checks: a typo while another benchmark runs is a usage
        // error (2), not a busy node (3). The free space is read under it: another benchmark's file would take some
        try (NodeLock held = nodeLock.acquire("bench storage")) {
            String fioSize = sizeWithRoom(file, existed);
            PrintWriter out = spec.commandLine().getOut();
            PrintWriter progress = output.json() ? spec.commandLine().getErr() : out;
            List<Measured> measured = new ArrayList<>();
            List<Finding> findings = new ArrayList<>();
            // the spec says MB/s, fio MiB/s; without a floor each direction is an INFO, as validate and diagnose give it
            StorageSeqVerdict verdict = new StorageSeqVerdict(expect.map(mbps -> mbps * 1e6 / 1_048_576.0));
            String subject = file.toAbsolutePath().getParent().toString();
            // Ctrl-C or SIGTERM: fio is ended (it prints what it measured so far), the next job is not started, and what
            // was measured is printed, marked as stopped early, with exit code 1 (docs/exit-codes.md)
            boolean stopped = false;
            try (dev.railyard.platform.Cancellation.Registration onStop = Interrupts.onStop(Interrupts::stopChildProcesses)) {
                for (FioRunner.Pattern p : List.of(FioRunner.Pattern.WRITE, FioRunner.Pattern.READ)) {
                    if (Interrupts.requested()) {
                        stopped = true;
                        break;
                    }
                    FioSeqJob job = new FioSeqJob(p, file, fioSize, runtime, blockSize, direct);
                    String line = VerdictText.shellLine(job.argv());
                    progress.println("Running: " + line);
                    progress.flush();
                    FioResult result;
                    try (FioProgress ticking = FioProgress.start(progress, p.name().toLowerCase(Locale.ROOT), runtime,
                            progressEvery)) {
                        result = new FioRunner(runner).run(job);
                    } catch (ToolParseException e) {
                        findings.add(StorageSeqVerdict.fioFailed(subject, p.name().toLowerCase(Locale.ROOT), e.getMessage(),
                                direct));
                        break;
                    }
                    // judged as the job we asked for: the verdict reads the direction from rw, which fio may omit
                    FioJob ran = result.jobs().getFirst();
                    String rw = p == FioRunner.Pattern.WRITE ? "write" : "read";
                    FioJob j = new FioJob(ran.name(), rw, ran.read(), ran.write());
                    FioDirection d = p == FioRunner.Pattern.WRITE ? j.write() : j.read();
                    measured.add(new Measured(rw, line, d.megabytesPerSecond(), d.mebibytesPerSecond(), d.iops(),
                            d.clatMeanUs(), d.clatP99Us()));
                    findings.add(verdict.judge(subject, j));
                }
                stopped |= Interrupts.requested();
            } finally {
                // Ctrl-C or SIGTERM ends fio and comes here: the scratch file goes on every way out
                if (remove) deleteQuietly(file);
            }
            if (output.json()) {
                out.println(Json.write(new Report(file.toString(), measured, !stopped, findings)));
            } else {
                out.println();
                out.print(table(measured));
                out.println();
                if (expect.isEmpty()) {
                    out.println("No expectation: give --expect-mbps MB/s or a --spec with expect.storage_seq_mbps for a verdict.");
                }
                out.print(VerdictText.render(findings));
                if (stopped) out.println("run stopped early: interrupted (the numbers above are what fio measured until then)");
            }
            out.flush();
            return stopped ? ExitCodes.FAIL_FINDING : ExitCodes.of(findings);
        }
    }

    static String table(List<Measured> rows) {
        StringBuilder sb = new StringBuilder(String.format("%-6s %10s %10s %10s %14s %14s%n",
                "JOB", "MB/s", "MiB/s", "IOPS", "clat mean µs", "clat p99 µs"));
        for (Measured m : rows) {
            sb.append(String.format(Locale.ROOT, "%-6s %10.1f %10.1f %10.0f %14s %14s%n", m.job(), m.megabytesPerSecond(),
                    m.mebibytesPerSecond(), m.iops(), us(m.clatMeanUs()), us(m.clatP99Us())));
        }
        return sb.toString();
    }

    private static String us(OptionalDouble v) {
        return v.isPresent() ? String.format(Locale.ROOT, "%.1f", v.getAsDouble()) : "-";
    }

    private static void checkSize(String option, String value) {
        checkSize(option, value, false);
    }

    private static void checkSize(String option, String value, boolean zeroAllowed) {
        try {
            if (ByteSizeConverter.parse(value) == 0 && !zeroAllowed) throw new picocli.CommandLine.TypeConversionException("zero");
        } catch (picocli.CommandLine.TypeConversionException e) {
            throw new RailyardException.Usage(option + " '" + value + "' is not a size", "examples: 4K, 1M, 1G");
        }
    }

    /** The --size to give fio: the one asked for if the disk has room for it, else a refusal; or one that fits. */
    private String sizeWithRoom(Path file, boolean existed) {
        Path dir = file.toAbsolutePath().getParent();
        long usable;
        try {
            usable = room.usableBytes(dir);
            // a file that is there already is overwritten in place: its blocks count as room
            if (existed && Files.isRegularFile(file)) usable += Files.size(file);
        } catch (IOException e) {
            throw new RailyardException.Usage("cannot read the free space of " + dir + " (" + e.getMessage() + ")",
                    "give a --dir on a mounted, readable filesystem");
        }
        long bytes = size != null ? ByteSizeConverter.parse(size) : StorageRoom.defaultSize(usable, room.memoryBytes());
        StorageRoom.requireRoom(dir, size != null ? "--size" : "the default size", bytes,
                margin == null ? OptionalLong.empty() : OptionalLong.of(ByteSizeConverter.parse(margin)), usable);
        if (ByteSizeConverter.parse(blockSize) > bytes) {
            throw new RailyardException.Usage("--bs " + blockSize + " is larger than the file (" + StorageRoom.sizeOption(bytes)
                    + ", what the disk has room for)", "give a smaller --bs, or a --dir on a disk with more room");
        }
        return size != null ? size : StorageRoom.sizeOption(bytes);
    }

    private Path file() {
        if (target != null && target.file != null) return target.file;
        Path dir = target != null && target.dir != null ? target.dir : Path.of(".");
        if (!Files.isDirectory(dir)) {
            throw new RailyardException.Usage("--dir " + dir + " is not a directory", "give a directory on the disk to test");
        }
        return dir.resolve(SCRATCH);
    }

    /** fio overwrites its file: a block device or someone's data must not be lost to a typo. */
    private void refuseForeign(Path file, boolean existed) {
        if (!existed || force) return;
        if (Files.isRegularFile(file) && file.getFileName().toString().equals(SCRATCH)) return;
        throw new RailyardException.Usage(file + " exists and fio would overwrite it",
                "pass --force to overwrite it, or use --dir DIR to let railyard make (and remove) a scratch file");
    }

    /** tmpfs refuses O_DIRECT with EINVAL; say so before fio prints a cryptic error. */
    private void refuseDirectOnTmpfs(Path file) {
        if (!direct) return;
        try {
            Path dir = file.toAbsolutePath().getParent();
            if (dir != null && Files.getFileStore(dir).type().equals("tmpfs")) {
                throw new RailyardException.Usage(dir + " is on tmpfs, which does not support O_DIRECT",
                        "add --no-direct (this measures memory, not a disk)");
            }
        } catch (IOException e) {
            // the directory cannot be inspected; fio will report what is wrong with it
        }
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            // a scratch file left behind is harmless; the next run overwrites it
        }
    }
}
