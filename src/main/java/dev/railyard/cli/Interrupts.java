package dev.railyard.cli;

import dev.railyard.platform.Cancellation;
import sun.misc.Signal;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Ctrl-C and SIGTERM for every command, as docs/exit-codes.md promises, through the process's one
 * {@link Cancellation} token. The signals are handled, not left to the JVM's shutdown: the first cancels the token,
 * whose actions stop what runs (a command that registered none has its main thread interrupted and the programs
 * Railyard started ended); the command then prints and writes what it measured and returns its own code to
 * {@link Main#main}, which exits with it (1 for a run cut short, 0 for a server the user stopped) instead of the 130
 * or 143 of a JVM ended by a signal. Nothing races the report: the JVM is not shutting down while it is written. A
 * second signal ends the process at once.
 *
 * <p>One shutdown hook remains, for an end that is not a handled signal (SIGHUP, a second signal): it cancels the
 * token and ends the programs Railyard started, so none is left behind; it waits for nothing.
 */
public final class Interrupts {

    private static final List<String> SIGNALS = List.of("INT", "TERM");
    /** The process's token: Main's when it installed the handlers, else one nothing cancels (tests in one JVM). */
    private static volatile Cancellation token = Cancellation.create();
    private static volatile boolean commandReturned;

    private Interrupts() {
    }

    /**
     * Called once by {@link Main#main}: handles SIGINT and SIGTERM with {@code stop} and installs the one shutdown
     * hook; {@code endAtOnce} is what a second signal does.
     */
    static void install(Cancellation stop, Thread main, Runnable endAtOnce) {
        token = stop;
        for (String name : SIGNALS) {
            try {
                Signal.handle(new Signal(name), s -> onSignal(stop, main, "SIG" + name, endAtOnce));
            } catch (IllegalArgumentException e) {
                // the JVM keeps this signal to itself (-Xrs): its default, the shutdown hook below, still stops children
            }
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            if (commandReturned) return; // a normal exit: the command is done, and what it started is its own
            stop.cancel("the process is ending");
            stopChildProcesses();
        }, "railyard-stop"));
    }

    /** Signals handled so far: each is handled on a thread of its own, so two can arrive side by side. */
    private static final AtomicInteger SIGNALS_SEEN = new AtomicInteger();

    private static void onSignal(Cancellation stop, Thread main, String name, Runnable endAtOnce) {
        if (SIGNALS_SEEN.incrementAndGet() > 1) {
            endAtOnce.run();
            return;
        }
        if (!stop.watched()) {
            // no step of this command said how it stops: stop it where it is, with the programs it started
            main.interrupt();
            stopChildProcesses();
        }
        stop.cancel(name);
    }

    /** The process's cancellation token, to pass down to long steps. */
    public static Cancellation token() {
        return token;
    }

    /**
     * Registers what makes the running command stop where it is, in place of the default (interrupt the main thread,
     * end the child programs). Closing the registration takes it back (the command is past the part it guards).
     */
    public static Cancellation.Registration onStop(Runnable action) {
        return token.onCancel(action);
    }

    /** True once Ctrl-C or SIGTERM arrived while the command ran. */
    public static boolean requested() {
        return token.cancelled();
    }

    /** The command returned: from now on the shutdown hook leaves everything as the command left it. */
    static void returned() {
        commandReturned = true;
    }

    /**
     * Ends the programs this JVM started (SIGTERM, then what is left is killed by the JVM's end): a SIGTERM sent to
     * Railyard alone must not leave fio or a perftest behind. Ctrl-C at a terminal reached them already.
     */
    public static void stopChildProcesses() {
        ProcessHandle.current().children().forEach(p -> {
            p.descendants().forEach(ProcessHandle::destroy);
            p.destroy();
        });
    }
}
