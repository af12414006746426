package dev.railyard.bench.fio;

import dev.railyard.model.FioResult;

import dev.railyard.bench.ExternalTool;
import dev.railyard.bench.ToolParseException;
import dev.railyard.platform.CommandRunner;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Runs the classic NVMe bring-up's sequential jobs: 1 MiB blocks, O_DIRECT (so the page cache does not flatter the disk), one job,
 * time-limited, with --output-format=json.
 */
public final class FioRunner {

    public enum Pattern {
        READ("read"), WRITE("write");

        final String rw;

        Pattern(String rw) {
            this.rw = rw;
        }
    }

    private final CommandRunner runner;

    public FioRunner(CommandRunner runner) {
        this.runner = runner;
    }

    public static List<String> argv(Pattern pattern, Path file, String size, int seconds) {
        return seed(pattern, file, size, seconds).argv();
    }

    public FioResult run(Pattern pattern, Path file, String size, int seconds) {
        return run(seed(pattern, file, size, seconds));
    }

    private static FioSeqJob seed(Pattern pattern, Path file, String size, int seconds) {
        return new FioSeqJob(pattern, file, size, seconds, "1M", true);
    }

    public FioResult run(FioSeqJob job) {
        CommandRunner.Result r = ExternalTool.FIO.requireStarted(
                runner.run(job.argv(), Duration.ofSeconds(job.runtimeSeconds() + 120L)));
        if (r.timedOut()) throw new ToolParseException("fio", 0, "", "fio timed out");
        if (r.exitCode() != 0 && r.stdout().isBlank()) {
            String err = r.stderr().strip().lines().findFirst().orElse("");
            throw new ToolParseException("fio", 1, err, "fio exited with " + r.exitCode());
        }
        return new FioJsonParser().parse(r.stdout());
    }
}
