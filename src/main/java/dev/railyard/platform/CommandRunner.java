package dev.railyard.platform;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

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

        /** A signal (Ctrl-C to the process group) stopped the program as it was being started. */
        public boolean interruptedAtStart() {
            return startError.startsWith(ProcessCommandRunner.INTERRUPTED_AT_START);
        }
    }

    /** The real thing, with java.lang.ProcessBuilder. */
    static CommandRunner system() {
        return new ProcessCommandRunner(Optional.empty());
    }

    /** The real thing, also handing each output line (stdout and stderr) to {@code echo} as it arrives. */
    static CommandRunner echoing(Consumer<String> echo) {
        return new ProcessCommandRunner(Optional.of(echo));
    }
}
