package dev.railyard.cli;

import dev.railyard.collect.NodeCapture;
import dev.railyard.model.RailyardException;
import dev.railyard.platform.Clock;
import dev.railyard.platform.CommandRunner;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

@Command(name = "capture",
        mixinStandardHelpOptions = true,
        description = {
                "Pack this node's sysfs/procfs and tool outputs into a .tgz for bug reports and --root.",
                "",
                "Pack this node's sysfs/procfs files exactly as the readers use them (symlinks kept), plus the "
                        + "output of nvidia-smi -q -x, ibstat and dmesg when those exist and the interface addresses, into one .tgz.",
                "",
                "Attach it to a bug report, or read it elsewhere with --root after unpacking."},
        footer = {"", "Example:",
                "  railyard capture --out gpuserver1.tgz",
                "  mkdir n1 && tar -xzf gpuserver1.tgz -C n1 && railyard inventory --root n1"})
public final class CaptureCommand implements Callable<Integer> {

    @Option(names = "--out", required = true, paramLabel = "FILE", description = "Archive to write (.tgz).")
    Path out;

    @Option(names = "--force", description = "Overwrite FILE if it exists.")
    boolean force;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        if (Files.exists(out) && !force) {
            throw new RailyardException.Usage(out + " already exists", "choose another --out or add --force");
        }
        Path dir = out.toAbsolutePath().getParent();
        if (dir != null && !Files.isDirectory(dir)) {
            throw new RailyardException.Usage("cannot write " + out + ": the directory " + dir + " does not exist",
                    "create it first (mkdir -p " + dir + ") or choose another --out");
        }
        NodeCapture.Result r = new NodeCapture(CommandRunner.system(), Clock.system()).capture(out);
        PrintWriter w = spec.commandLine().getOut();
        w.printf("wrote %s: %d paths%s%n", r.archive(), r.paths(),
                r.toolsSaved().isEmpty() ? "" : ", plus output of " + String.join(", ", r.toolsSaved()));
        if (!r.problems().isEmpty()) {
            w.printf("%d paths could not be copied (listed in railyard/CAPTURE.txt inside the archive)%n", r.problems().size());
        }
        w.flush();
        return ExitCodes.OK;
    }
}
