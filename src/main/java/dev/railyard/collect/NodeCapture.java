package dev.railyard.collect;

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

    /** What was packed, for the command to print and for tests. */
    public record Result(Path archive, int paths, List<String> toolsSaved, List<String> problems) {}

    private final CommandRunner runner;
    private final Clock clock;

    public NodeCapture(CommandRunner runner, Clock clock) {
        this.runner = runner;
        this.clock = clock;
    }

    public Result capture(Path archive) {
        ReadLog log = ReadLog.create();
        HostRoot recording = HostRoot.recording(log);
        new InventoryCollector(GpuCollector.forRoot(recording), clock).collect(recording);

        Path staging = createStaging();
        try {
            TreeCopier copier = new TreeCopier(Path.of("/"), staging);
            log.files().forEach(f -> copier.copy(f, false));
            log.directories().forEach(d -> copier.copy(d, true));
            List<String> saved = saveToolOutputs(staging);
            IpAddressTable.live().optional().ifPresent(t -> write(staging.resolve(IpAddressTable.CAPTURED_FILE), t.toIpJson()));
            List<String> problems = new ArrayList<>(copier.problems());
            writeManifest(staging, log, saved, problems);
            write(staging.resolve(HostRoot.UNREADABLE_LIST), String.join("\n", problems) + "\n");
            pack(staging, archive);
            return new Result(archive, log.files().size() + log.directories().size(), saved, problems);
        } finally {
            deleteRecursively(staging);
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

    private void pack(Path staging, Path archive) {
        Path abs = archive.toAbsolutePath();
        CommandRunner.Result r = runner.run(List.of("tar", "-czf", abs.toString(), "-C", staging.toString(), "."),
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
