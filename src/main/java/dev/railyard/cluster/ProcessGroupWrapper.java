package dev.railyard.cluster;

import java.util.ArrayList;
import java.util.List;

/**
 * The small POSIX sh program every remote step runs under. sshd gives a command without a terminal no signal when
 * the client goes away, so killing {@code ssh} alone would orphan the remote step; this wrapper starts the step in
 * its own session and process group ({@code setsid}) and kills that whole group when the ssh session's stdin reaches
 * end of file: the client closed it (step timeout, Ctrl-C, railyard killed) or the connection dropped. It also kills
 * the group when the step ends by itself, so nothing the step started outlives it.
 */
final class ProcessGroupWrapper {

    /** Seconds between SIGTERM (railyard stops cleanly) and SIGKILL for the whole group. */
    static final int GRACE_SECONDS = 2;

    // Background jobs of a non-interactive sh get /dev/null as stdin, so the watcher reads the session's stdin
    // through fd 3. setsid does not fork here ($! is not a group leader), so $! is the new group's id.
    static final String SCRIPT = String.join("\n",
            "exec 3<&0",
            "setsid \"$@\" </dev/null 3<&- &",
            "step=$!",
            "( while read -r _ <&3; do :; done",
            "  kill -TERM -\"$step\" 2>/dev/null || exit 0",
            "  n=0; while kill -0 -\"$step\" 2>/dev/null && [ $n -lt " + GRACE_SECONDS * 10 + " ]; do",
            "    sleep 0.1 2>/dev/null || sleep 1; n=$((n+1)); done",
            "  kill -KILL -\"$step\" 2>/dev/null ) </dev/null &",
            "watcher=$!",
            "exec 3<&-",
            "wait \"$step\"; rc=$?",
            "kill -KILL -\"$step\" 2>/dev/null",
            "kill \"$watcher\" 2>/dev/null",
            "exit $rc");

    private ProcessGroupWrapper() {
    }

    /** The argv that runs {@code argv} under the wrapper (for transports that exec an argv, as srun does). */
    static List<String> argv(List<String> argv) {
        List<String> all = new ArrayList<>(List.of("sh", "-c", SCRIPT, "railyard-step"));
        all.addAll(argv);
        return all;
    }

    /** The same as one command line for a remote shell (what ssh carries). */
    static String remoteCommand(List<String> argv) {
        return PosixShellWords.join(argv(argv));
    }
}
