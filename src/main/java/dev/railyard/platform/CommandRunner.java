package dev.railyard.platform;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Runs an external program from an argv list with a timeout and a working directory. Never through a shell:
 * node names and paths come from users.
 */
public interface CommandRunner {

    Result run(List<String> argv, Duration timeout, Path workingDir, Map<String, String> extraEnv);

    default Result run(List<String> argv, Duration timeout) {
        return run(argv, timeout, Path.of("."), Map.of());
    }

    /** exitCode is -1 when the program could not be started (then {@code startError} says why) or timed out. */
    record Result(List<String> argv, int exitCode, String stdout, String stderr, boolean timedOut, String startError) {
        public boolean ok() {
            return exitCode == 0 && !timedOut && startError.isEmpty();
        }

        public boolean notFound() {
            return !startError.isEmpty();
        }
    }

    /** The real thing, with java.lang.ProcessBuilder. */
    static CommandRunner system() {
        return (argv, timeout, dir, env) -> {
            ProcessBuilder pb = new ProcessBuilder(argv).directory(dir.toFile());
            pb.environment().putAll(env);
            Process p;
            try {
                p = pb.start();
            } catch (IOException e) {
                return new Result(argv, -1, "", "", false, String.valueOf(e.getMessage()));
            }
            try {
                p.getOutputStream().close();
            } catch (IOException ignored) {
                // the program does not read stdin; nothing to do
            }
            CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> drain(p.getInputStream()));
            CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> drain(p.getErrorStream()));
            boolean finished;
            try {
                finished = p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                p.destroyForcibly();
                Thread.currentThread().interrupt();
                return new Result(argv, -1, out.getNow(""), err.getNow(""), true, "");
            }
            if (!finished) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
            }
            return new Result(argv, finished ? p.exitValue() : -1, out.join(), err.join(), !finished, "");
        };
    }

    private static String drain(InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
