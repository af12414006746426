package dev.railyard.platform;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A {@link CommandRunner} that also hands every output line to {@code echo} as it arrives, for benchmarks that
 * run for a while (a perftest server waits for its client and says so): the user sees progress, and the caller
 * still gets the whole output to parse. Lines of stdout and stderr go to the same sink, one at a time.
 */
public final class EchoingCommandRunner implements CommandRunner {

    private final Consumer<String> echo;

    public EchoingCommandRunner(Consumer<String> echo) {
        this.echo = echo;
    }

    @Override
    public Result run(List<String> argv, Duration timeout, Path workingDir, Map<String, String> extraEnv) {
        ProcessBuilder pb = new ProcessBuilder(argv).directory(workingDir.toFile());
        pb.environment().putAll(extraEnv);
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
        CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> pump(p.getInputStream()));
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> pump(p.getErrorStream()));
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
    }

    private String pump(InputStream in) {
        StringBuilder all = new StringBuilder();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                all.append(line).append('\n');
                synchronized (this) {
                    echo.accept(line);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return all.toString();
    }
}
