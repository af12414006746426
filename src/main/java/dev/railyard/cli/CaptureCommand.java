package dev.railyard.cli;

import dev.railyard.collect.NodeCapture;
import dev.railyard.model.RailyardException;
import dev.railyard.platform.Clock;
import dev.railyard.platform.CommandRunner;
import dev.railyard.platform.IoErrors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.Callable;

@Command(name = "capture",
        mixinStandardHelpOptions = true,
        description = {
                "Pack this node's sysfs/procfs and tool outputs into a .tgz for bug reports and --root.",
                "",
                "Pack this node's sysfs/procfs files exactly as the readers use them (symlinks kept), the GPU readings "
                        + "as NVML gave them, and the output of nvidia-smi -q -x, ibstat and dmesg when those exist and "
                        + "the interface addresses, into one .tgz that unpacks into one directory.",
                "",
                "What it contains: this host's name, IP and MAC addresses, InfiniBand GUIDs and GIDs, GPU UUIDs and "
                        + "serial numbers, the kernel log (which may name users' processes), and the loaded modules. "
                        + "Add --redact before sharing it outside your site: those values are replaced, each by the "
                        + "same stand-in everywhere, so the capture still reads as one consistent node.",
                "",
                "Attach it to a bug report, or read it elsewhere with --root after unpacking."},
        footer = {"", "Examples:",
                "  railyard capture --out gpuserver1.tgz",
                "  tar -xzf gpuserver1.tgz && railyard inventory --root gpuserver1",
                "  railyard capture --redact --out - | ssh admin@jumphost 'cat > gpuserver1.tgz'"})
public final class CaptureCommand implements Callable<Integer> {

    @Option(names = "--out", required = true, paramLabel = "FILE",
            description = "Archive to write (.tgz); - writes it to standard output.")
    Path out;

    @Option(names = "--force", description = "Overwrite FILE if it exists.")
    boolean force;

    @Option(names = "--redact",
            description = "Replace IP and MAC addresses, GUIDs, hostnames, GPU UUIDs and serial numbers, consistently.")
    boolean redact;

    @Spec
    CommandSpec spec;

    /** Where --out - goes; a test hands in its own stream. */
    OutputStream stdout = System.out;

    @Override
    public Integer call() {
        boolean toStdout = out.toString().equals("-");
        if (!toStdout && Files.exists(out) && !force) {
            throw new RailyardException.Usage(out + " already exists", "choose another --out or add --force");
        }
        Path dir = toStdout ? null : out.toAbsolutePath().getParent();
        if (dir != null && !Files.isDirectory(dir)) {
            throw new RailyardException.Usage("cannot write " + out + ": the directory " + dir + " does not exist",
                    "create it first (mkdir -p " + dir + ") or choose another --out");
        }
        NodeCapture capture = new NodeCapture(CommandRunner.system(), Clock.system());
        // The summary goes where the archive does not: stderr when the archive is on stdout.
        PrintWriter w = toStdout ? spec.commandLine().getErr() : spec.commandLine().getOut();
        NodeCapture.Result r;
        if (toStdout) {
            Path tmp = temporaryArchive();
            try {
                r = capture.capture(tmp, "railyard-capture", redact);
                Files.copy(tmp, stdout);
                stdout.flush();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } finally {
                tmp.toFile().delete();
            }
        } else {
            r = captureInPlace(capture);
        }
        w.printf("wrote %s: %d paths under %s/%s%s%n", toStdout ? "the archive to standard output" : out, r.paths(),
                r.topDirectory(), r.toolsSaved().isEmpty() ? "" : ", plus " + String.join(", ", r.toolsSaved()),
                redact ? "; " + r.redacted() + " values redacted" : "");
        if (!r.problems().isEmpty()) {
            w.printf("%d paths could not be copied (listed in railyard/CAPTURE.txt inside the archive)%n", r.problems().size());
        }
        w.flush();
        return ExitCodes.OK;
    }

    /**
     * tar writes a hidden file beside --out, renamed to --out once complete: a full disk, an unwritable directory or a
     * Ctrl-C leaves no half-written archive under the name asked for (and --force keeps the old one until then). A
     * --out that is not a regular file (a device: --force --out /dev/nst0) is written directly.
     */
    private NodeCapture.Result captureInPlace(NodeCapture capture) {
        String top = NodeCapture.topDirectoryFor(out);
        if (Files.exists(out) && !Files.isRegularFile(out)) return capture.capture(out, top, redact);
        Path partial = out.toAbsolutePath().resolveSibling("." + out.getFileName() + ".railyard-partial");
        try {
            NodeCapture.Result r = capture.capture(partial, top, redact);
            Files.move(partial, out, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return r;
        } catch (IOException e) {
            throw new RailyardException.Usage("could not write " + out + ": " + IoErrors.describe(e),
                    "check that the directory exists, is writable and has room");
        } finally {
            try {
                Files.deleteIfExists(partial);
            } catch (IOException ignored) {
                // the directory refused the write in the first place: nothing was left there
            }
        }
    }

    private static Path temporaryArchive() {
        try {
            return Files.createTempFile("railyard-capture-", ".tgz");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
