package dev.railyard.collect;

import dev.railyard.model.NodeInventory;
import dev.railyard.model.RailyardException;
import dev.railyard.platform.Clock;
import dev.railyard.platform.CommandRunner;
import dev.railyard.platform.HostRoot;
import dev.railyard.platform.ReadLog;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * {@code railyard capture}: runs the inventory on this machine while noting every sysfs/procfs path the readers
 * touch, copies exactly those (symlinks kept) plus the outputs of nvidia-smi -q -x, ibstat, ip and dmesg into a
 * directory, and packs it as a .tgz that {@code --root} reads after unpacking.
 */
public final class NodeCapture {

    /** Tool outputs saved under railyard/ in the capture; readers of captured roots look for these names. */
    public static final List<ToolOutput> TOOL_OUTPUTS = List.of(
            new ToolOutput("railyard/nvidia-smi-q.xml", List.of("nvidia-smi", "-q", "-x")),
            new ToolOutput("railyard/ibstat.txt", List.of("ibstat")),
            new ToolOutput("railyard/dmesg.txt", List.of("dmesg")));

    public record ToolOutput(String file, List<String> argv) {}

    /** What was packed, for the command to print and for tests; {@code redacted} counts values replaced. */
    public record Result(Path archive, String topDirectory, int paths, List<String> toolsSaved, List<String> problems,
                         int redacted) {}

    private final CommandRunner runner;
    private final Clock clock;
    private final Function<HostRoot, GpuCollector> gpus;

    public NodeCapture(CommandRunner runner, Clock clock) {
        this(runner, clock, GpuCollector::forRoot);
    }

    /** With a given GPU collector, such as one over a test's fake NVML. */
    public NodeCapture(CommandRunner runner, Clock clock, Function<HostRoot, GpuCollector> gpus) {
        this.runner = runner;
        this.clock = clock;
        this.gpus = gpus;
    }

    public Result capture(Path archive) {
        return capture(archive, topDirectoryFor(archive), false);
    }

    /**
     * The top directory the archive unpacks into: the archive's name without .tgz / .tar.gz, so {@code capture --out
     * gpuserver1.tgz} unpacks into gpuserver1/.
     */
    public static String topDirectoryFor(Path archive) {
        String name = archive.getFileName().toString().replaceFirst("(\\.tar\\.gz|\\.tgz|\\.tar)$", "");
        return name.isBlank() || name.equals("-") || name.startsWith(".") ? "railyard-capture" : name;
    }

    /** Packs everything under one top directory; with {@code redact}, addresses, MACs, hostnames and serials are replaced first. */
    public Result capture(Path archive, String topDirectory, boolean redact) {
        ReadLog log = ReadLog.create();
        HostRoot recording = HostRoot.recording(log);
        NodeInventory inventory = new InventoryCollector(gpus.apply(recording), clock).collect(recording);

        Path parent = createStaging();
        try {
            Path staging = parent.resolve(topDirectory);
            TreeCopier copier = new TreeCopier(Path.of("/"), staging);
            log.files().forEach(f -> copier.copy(f, false));
            log.directories().forEach(d -> copier.copy(d, true));
            List<String> saved = saveToolOutputs(staging);
            // What only NVML knows (memory used, NVLink state, clock-event reasons) goes in as NVML gave it.
            if (inventory.gpu().nvml().isPresent()) {
                write(staging.resolve(NvmlCaptureFile.FILE), NvmlCaptureFile.write(inventory.gpu()));
                saved.add("NVML");
            }
            IpAddressTable.live().optional().ifPresent(t -> write(staging.resolve(IpAddressTable.CAPTURED_FILE), t.toIpJson()));
            List<String> problems = new ArrayList<>(copier.problems());
            writeManifest(staging, log, saved, problems);
            write(staging.resolve(HostRoot.UNREADABLE_LIST), String.join("\n", problems) + "\n");
            int redacted = redact ? CaptureRedaction.redact(staging) : 0;
            pack(parent, topDirectory, archive);
            return new Result(archive, topDirectory, log.files().size() + log.directories().size(), saved, problems, redacted);
        } finally {
            deleteRecursively(parent);
        }
    }

    private List<String> saveToolOutputs(Path staging) {
        List<String> saved = new ArrayList<>();
        for (ToolOutput t : TOOL_OUTPUTS) {
            CommandRunner.Result r = runner.run(t.argv(), Duration.ofSeconds(30), Path.of("/"), Map.of("LC_ALL", "C"));
            if (!r.ok() || r.stdout().isBlank()) continue; // a tool that is not installed is simply not captured
            write(staging.resolve(t.file()), r.stdout());
            saved.add(String.join(" ", t.argv()));
        }
        return saved;
    }

    private void writeManifest(Path staging, ReadLog log, List<String> saved, List<String> problems) {
        StringBuilder m = new StringBuilder();
        m.append("# railyard capture\n");
        m.append("taken: ").append(clock.now()).append('\n');
        m.append("paths read: ").append(log.files().size()).append(", directories listed: ")
                .append(log.directories().size()).append('\n');
        m.append("tool outputs: ").append(saved.isEmpty() ? "none" : String.join("; ", saved)).append('\n');
        m.append("not copied (path: reason):\n");
        problems.forEach(p -> m.append("  ").append(p).append('\n'));
        write(staging.resolve("railyard/CAPTURE.txt"), m.toString());
    }

    private void pack(Path parent, String topDirectory, Path archive) {
        Path abs = archive.toAbsolutePath();
        CommandRunner.Result r = runner.run(List.of("tar", "-czf", abs.toString(), "-C", parent.toString(), topDirectory),
                Duration.ofMinutes(2), Path.of("/"), Map.of());
        if (r.notFound()) {
            throw new RailyardException.MissingPrerequisite("tar is not installed", "apt-get install tar (dnf install tar)");
        }
        if (!r.ok()) {
            throw new RailyardException.Usage("could not write " + archive + ": " + tarReason(r),
                    "check that the directory exists, is writable and has room");
        }
    }

    /** tar's several lines of complaint, as the one reason that matters. */
    public static String tarReason(CommandRunner.Result r) {
        String err = r.stderr();
        if (r.timedOut()) return "tar did not finish within 2 minutes";
        if (err.contains("No space left on device")) return "disk full";
        if (err.contains("Permission denied")) return "permission denied";
        if (err.contains("No such file or directory")) return "no such directory";
        if (err.contains("Read-only file system")) return "read-only file system";
        if (err.contains("Wrote only")) return "disk full"; // a short write with no other reason given
        return "tar exited with status " + r.exitCode();
    }

    private static Path createStaging() {
        try {
            return Files.createTempDirectory("railyard-capture-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void write(Path file, String text) {
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void deleteRecursively(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a leftover temp directory is harmless
        }
    }
}
