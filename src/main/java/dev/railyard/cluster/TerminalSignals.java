package dev.railyard.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Starts a launcher's local child (ssh, a local railyard) with the signals a terminal or a process-group kill sends
 * (Ctrl-C's SIGINT, Ctrl-\'s SIGQUIT, SIGTERM, SIGHUP) ignored. Ctrl-C reaches the whole foreground process group:
 * without this, every ssh of a running step died with the coordinator's SIGINT (exit 255, no message) before
 * validate's shutdown hook could stop it, and the step was judged as a node that was not reached, or a pair that
 * failed. The coordinator alone handles the signal and ends its steps as it does at a timeout (closing their stdin,
 * then SIGKILL); a SIGKILL of the coordinator still ends them through their broken pipes. An ignored signal stays
 * ignored through exec, and OpenSSH and the JVM both keep a signal ignored that they found ignored.
 */
final class TerminalSignals {

    private static final Path SHELL = Path.of("/bin/sh");
    private static final Path SETSID = Path.of("/usr/bin/setsid");
    private static final String SCRIPT = "trap '' INT QUIT TERM HUP; exec \"$0\" \"$@\"";

    private TerminalSignals() {}

    /**
     * {@code argv} under a shell that ignores those signals and then execs it (same pid). The program is looked up
     * here, so a missing one still fails to start (an IOException) rather than becoming the shell's exit 127.
     */
    static List<String> ignoring(List<String> argv) throws IOException {
        if (!Files.isExecutable(SHELL)) return argv;
        List<String> shielded = new ArrayList<>(List.of(SHELL.toString(), "-c", SCRIPT, resolve(argv.getFirst())));
        shielded.addAll(argv.subList(1, argv.size()));
        return shielded;
    }

    /**
     * {@code argv} in a session of its own ({@code setsid}, which execs it: same pid, as the JVM's child is no
     * process group leader), so that the terminal's signals and a kill of validate's process group never reach it.
     * For programs that set their own handlers and so do not keep an ignored signal ignored: srun prints its tasks'
     * state at one SIGINT and cancels its step at a second within a second, salloc gives up at SIGINT, and both
     * forward or act on SIGTERM. Without setsid, {@link #ignoring} is the best there is.
     */
    static List<String> ownSession(List<String> argv) throws IOException {
        if (!Files.isExecutable(SETSID)) return ignoring(argv);
        // --wait: should setsid ever have to fork (it was started as a group leader), it still ends with the program
        List<String> detached = new ArrayList<>(List.of(SETSID.toString(), "--wait", resolve(argv.getFirst())));
        detached.addAll(argv.subList(1, argv.size()));
        return detached;
    }

    /**
     * Whether a shielded child's exit code says one of those signals ended it: only possible when it arrived in the
     * moment between the shell's start and its trap (a Ctrl-C right as a step starts), so the step was stopped by
     * the user's interrupt, not failed. The JDK reports a death by signal N as 128 + N.
     */
    static boolean endedBeforeShielded(int exitCode) {
        return exitCode == 128 + 1 || exitCode == 128 + 2 || exitCode == 128 + 3 || exitCode == 128 + 15;
    }

    /**
     * Whether a child failed to start because a terminal signal killed the JDK's spawn helper (jspawnhelper, in
     * validate's process group until it execs the child): "Failed to exec spawn helper: pid: N, signal: 2". That is
     * the same Ctrl-C arriving as the step starts, before any shield can be in place, so not a failed launch.
     */
    static boolean startCutBySignal(IOException e) {
        String m = String.valueOf(e.getMessage());
        return m.contains("spawn helper") && java.util.regex.Pattern.compile("signal: (1|2|3|15)\\b").matcher(m).find();
    }

    private static String resolve(String program) throws IOException {
        if (program.contains("/")) {
            if (Files.isExecutable(Path.of(program)) && !Files.isDirectory(Path.of(program))) return program;
            throw new IOException("Cannot run program \"" + program + "\": no such executable file");
        }
        String path = System.getenv("PATH");
        for (String dir : (path == null ? "/usr/local/bin:/usr/bin:/bin" : path).split(":")) {
            if (dir.isEmpty()) continue;
            Path candidate = Path.of(dir, program);
            if (Files.isExecutable(candidate) && !Files.isDirectory(candidate)) return candidate.toString();
        }
        throw new IOException("Cannot run program \"" + program + "\": not found on PATH");
    }
}
