package dev.railyard.cli;

import dev.railyard.cluster.ClusterApply;
import dev.railyard.model.Finding;
import dev.railyard.model.NodeStatus;
import dev.railyard.model.RailyardException;
import dev.railyard.model.Severity;
import dev.railyard.model.ValidationReport;
import dev.railyard.nativelib.NativeCallException;
import dev.railyard.nativelib.NativeFailure;
import dev.railyard.platform.IoErrors;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.nio.file.FileSystemException;
import java.util.List;
import java.util.Optional;

/**
 * The one place exceptions become exit codes, as docs/exit-codes.md lists them: 0 ok, 1 a FAIL finding, 2 usage or
 * spec error, 3 a prerequisite missing or failing (tool, library, driver, device), 4 Railyard itself failed (a bug).
 */
public final class ExitCodes {
    public static final int OK = 0;
    public static final int FAIL_FINDING = 1;
    public static final int USAGE = 2;
    public static final int PREREQUISITE = 3;
    /** A bug in Railyard itself; the message asks for --debug and a report. */
    public static final int INTERNAL = 4;

    private ExitCodes() {
    }

    /** The one rule from findings to an exit code: any FAIL is 1, anything else 0 (WARN and UNKNOWN inform). */
    public static int of(List<Finding> findings) {
        return findings.stream().anyMatch(f -> f.severity() == Severity.FAIL) ? FAIL_FINDING : OK;
    }

    /**
     * validate's rule, the highest that applies: 3 for a node that could not be reached, timed out, failed to run its
     * steps or was lost mid-run, since a script that tests for 3 must never miss a node left unproven, even beside a
     * FAIL; else 1 for a FAIL, or a run that stopped before it finished (what it did not measure cannot pass; its
     * nodes not run are the stop's doing, not theirs); else 0. UNKNOWN readings on nodes that did run (no GPU on this
     * machine) inform, as with {@code check}.
     */
    public static int of(ValidationReport report) {
        if (!unproven(report).isEmpty()) return PREREQUISITE;
        if (report.severity() == Severity.FAIL || !report.complete()) return FAIL_FINDING;
        return OK;
    }

    /** The nodes that make a validate run exit 3: every status but COMPLETED, except NOT_RUN left by a stop. */
    public static List<NodeStatus> unproven(ValidationReport report) {
        return report.nodes().stream().map(n -> n.status())
                .filter(s -> s != NodeStatus.COMPLETED && !(s == NodeStatus.NOT_RUN && !report.complete())).toList();
    }

    /**
     * apply on many nodes: the highest of the nodes' codes. A node's own apply exits 0, 1 (interrupted), 2 (a
     * read-only file, nothing to undo, an undo refused over a hand edit) or 3 (no space left, a follow-up failed); a node that could not be reached, timed out or could not start Railyard
     * counts as 3 (the other side not answering), one interrupted as 1, and one whose report was unreadable as 4.
     */
    public static int ofApply(List<ClusterApply.NodeResult> nodes) {
        int worst = OK;
        for (ClusterApply.NodeResult n : nodes) {
            int code = switch (n.status()) {
                case COMPLETED -> OK;
                case UNREACHABLE, TIMED_OUT, LOST -> PREREQUISITE;
                case NOT_RUN -> FAIL_FINDING;
                case FAILED -> n.exitCode() == OK ? INTERNAL
                        : n.exitCode() >= FAIL_FINDING && n.exitCode() <= INTERNAL ? n.exitCode() : PREREQUISITE;
            };
            worst = Math.max(worst, code);
        }
        return worst;
    }

    static final class ExceptionHandler implements CommandLine.IExecutionExceptionHandler {
        @Override
        public int handleExecutionException(Exception ex, CommandLine cl, CommandLine.ParseResult parsed) {
            PrintWriter err = cl.getErr();
            boolean debug = parsed != null && debugRequested(cl);
            if (ex instanceof NativeCallException n) ex = NativeFailure.explain(n);
            if (Interrupts.requested()) {
                // Ctrl-C or SIGTERM broke what the command was doing (a wait, a write, a tool it ran): not a bug and
                // not a usage error, a run cut short
                err.println("railyard: interrupted: stopped before it finished");
                if (debug) ex.printStackTrace(err);
                err.flush();
                return FAIL_FINDING;
            }
            if (ex instanceof RailyardException re) {
                err.println("railyard: " + re.getMessage());
                if (re.hint() != null && !re.hint().isBlank()) err.println("  hint: " + re.hint());
                if (debug) ex.printStackTrace(err);
                err.flush();
                return re.exitCode();
            }
            Optional<FileSystemException> fs = fileSystemCause(ex);
            if (fs.isPresent()) {
                // a path the user named (or its directory) is missing, of the wrong kind, read-only or full: the
                // command line asks for something this machine cannot do there, not a bug in Railyard
                FileSystemException f = fs.get();
                err.println("railyard: cannot use " + f.getFile() + (f.getOtherFile() != null ? " or " + f.getOtherFile() : "")
                        + ": " + IoErrors.describe(f));
                err.println("  hint: check that the path exists, is a file or a directory as the option asks, is writable and has room");
                if (debug) ex.printStackTrace(err);
                err.flush();
                return USAGE;
            }
            Optional<java.io.IOException> net = networkCause(ex);
            if (net.isPresent()) {
                // the network or the peer failed under a command that did not name it itself: a prerequisite (the
                // peer, the path to it), never a bug here
                err.println("railyard: the network failed: " + IoErrors.describe(net.get())
                        + (net.get().getMessage() != null && !IoErrors.describe(net.get()).contains(net.get().getMessage())
                        ? " (" + net.get().getMessage() + ")" : ""));
                err.println("  hint: check that the peer is up and reachable from here (ping it, ip route get ADDRESS)");
                if (debug) ex.printStackTrace(err);
                err.flush();
                return PREREQUISITE;
            }
            err.println("railyard: internal error: " + (ex.getMessage() == null ? ex.getClass().getSimpleName() : ex.getMessage()));
            if (debug) ex.printStackTrace(err);
            else err.println("  run again with --debug for the stack trace, and please report it");
            err.flush();
            return INTERNAL;
        }

        /** The failure of a socket, a name lookup or an HTTP exchange behind {@code ex}, if it is one. */
        static Optional<java.io.IOException> networkCause(Throwable ex) {
            for (Throwable t = ex; t != null && t.getCause() != t; t = t.getCause()) {
                if (t instanceof java.net.SocketException || t instanceof java.net.SocketTimeoutException
                        || t instanceof java.net.UnknownHostException || t instanceof java.net.http.HttpTimeoutException
                        || t instanceof java.nio.channels.UnresolvedAddressException) {
                    return Optional.of(t instanceof java.io.IOException io ? io : new java.io.IOException(t));
                }
            }
            return Optional.empty();
        }

        /** The file-system failure behind {@code ex}, if it is one that names its file. */
        static Optional<FileSystemException> fileSystemCause(Throwable ex) {
            for (Throwable t = ex; t != null && t.getCause() != t; t = t.getCause()) {
                if (t instanceof FileSystemException f && f.getFile() != null) return Optional.of(f);
            }
            return Optional.empty();
        }

        static boolean debugRequested(CommandLine cl) {
            CommandLine top = cl;
            while (top.getParent() != null) top = top.getParent();
            return top.getCommand() instanceof RailyardCommand r && r.debug;
        }
    }

    static final class ParameterHandler implements CommandLine.IParameterExceptionHandler {
        @Override
        public int handleParseException(CommandLine.ParameterException ex, String[] args) {
            CommandLine cl = ex.getCommandLine();
            PrintWriter err = cl.getErr();
            err.println("railyard: " + ex.getMessage());
            CommandLine.UnmatchedArgumentException.printSuggestions(ex, err);
            err.println("  try: " + cl.getCommandSpec().qualifiedName() + " --help");
            err.flush();
            return USAGE;
        }
    }
}
