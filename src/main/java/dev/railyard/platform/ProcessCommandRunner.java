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
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Runs programs with java.lang.ProcessBuilder. With an echo, every output line is also handed over as it arrives
 * (a perftest server waits for its client and says so: the user sees progress, the caller still gets the whole
 * output to parse); without one, output is collected byte for byte.
 */
final class ProcessCommandRunner implements CommandRunner {

    /** How {@link CommandRunner.Result#startError} begins when a signal stopped the program as it started. */
    static final String INTERRUPTED_AT_START = "interrupted as it started";

    private final Optional<Consumer<String>> echo;

    ProcessCommandRunner(Optional<Consumer<String>> echo) {
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
            return new Result(argv, -1, "", "", false, startFailure(e));
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
    }

    /**
     * Why a program did not start, in words: Java's message names the working directory and the errno ("Cannot run
     * program "fio" (in directory "."): Exec failed, error: 2 (No such file or directory)"), which must not reach a user.
     */
    static String startFailure(IOException e) {
        String m = String.valueOf(e.getMessage());
        java.util.regex.Matcher cut = java.util.regex.Pattern.compile("spawn helper.*signal: (\\d+)").matcher(m);
        if (cut.find() && !cut.group(1).equals("0")) {
            // a signal killed the JDK's helper before it ran the program: Ctrl-C to the process group, usually
            return INTERRUPTED_AT_START + " (signal " + cut.group(1) + ")";
        }
        java.util.regex.Matcher errno = java.util.regex.Pattern.compile("error[=:] ?(\\d+)").matcher(m);
        if (errno.find()) {
            return switch (errno.group(1)) {
                case "2" -> "not found";
                case "13" -> "permission denied (not executable)";
                case "8" -> "not a program this machine can run";
                default -> {
                    int open = m.lastIndexOf('(');
                    int close = m.lastIndexOf(')');
                    yield open >= 0 && close > open ? IoErrors.plain(m.substring(open + 1, close)) : "could not be started";
                }
            };
        }
        return "could not be started";
    }

    private String drain(InputStream in) {
        try (in) {
            if (echo.isEmpty()) return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            StringBuilder all = new StringBuilder();
            BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            String line;
            while ((line = r.readLine()) != null) {
                all.append(line).append('\n');
                synchronized (this) { // stdout and stderr lines reach the echo one at a time
                    echo.get().accept(line);
                }
            }
            return all.toString();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
