package dev.railyard.cli;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Ctrl-C and SIGTERM for every command, as docs/exit-codes.md promises: the command is told to stop, what it measured
 * or wrote is printed by the command itself, and the JVM ends with the command's own code (1 for a benchmark cut short,
 * 0 for a server or daemon the user stopped) instead of the 130 or 143 of a JVM ended by a signal.
 *
 * <p>{@link Main#main} installs one hook. On a signal it runs the stop actions the running command registered (none: it
 * interrupts the main thread and ends the programs Railyard started, so a command waiting on either returns), then
 * waits for the command to return its code, at most the grace period, and ends the JVM with that code; a command that
 * does not return in time ends with 1, a run that stopped before it finished.
 */
public final class Interrupts {

    /** How long a command has, after the signal, to print what it has and return: short, a user is waiting. */
    static final Duration DEFAULT_GRACE = Duration.ofSeconds(5);

    private static final List<Runnable> STOP_ACTIONS = new CopyOnWriteArrayList<>();
    private static final CountDownLatch FINISHED = new CountDownLatch(1);
    private static volatile boolean requested;
    private static volatile boolean installed;
    private static volatile int code = -1;
    private static volatile Duration grace = DEFAULT_GRACE;

    private Interrupts() {
    }

    /** Called once by {@link Main#main} (not by tests that call {@link Main#run} in their own JVM). */
    static void install(Thread main) {
        installed = true;
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            if (FINISHED.getCount() == 0) return; // a normal System.exit: the command is done
            requested = true;
            if (STOP_ACTIONS.isEmpty()) {
                main.interrupt();
                stopChildProcesses();
            } else {
                for (Runnable r : STOP_ACTIONS) {
                    try {
                        r.run();
                    } catch (RuntimeException e) {
                        // a stop action that fails must not keep the JVM from ending
                    }
                }
            }
            try {
                boolean done = FINISHED.await(grace.toMillis(), TimeUnit.MILLISECONDS);
                Main.endDuringShutdown(done && code >= 0 ? code : ExitCodes.FAIL_FINDING);
            } catch (InterruptedException e) {
                Main.endDuringShutdown(ExitCodes.FAIL_FINDING);
            }
        }, "railyard-interrupt"));
    }

    /**
     * Replaces the default reaction to a signal (interrupt the main thread, end the child programs) with {@code action},
     * which must make the command return soon; the command has {@code grace} to print what it has and return.
     */
    public static Registration onStop(Runnable action, Duration grace) {
        STOP_ACTIONS.add(action);
        if (grace.compareTo(Interrupts.grace) > 0) Interrupts.grace = grace;
        return () -> STOP_ACTIONS.remove(action);
    }

    /** Closing it takes the stop action back (the command is past the part it guards). */
    public interface Registration extends AutoCloseable {
        @Override
        void close();
    }

    /** True once Ctrl-C or SIGTERM arrived while the command ran. */
    public static boolean requested() {
        return requested;
    }

    /** Whether the signal handling is in place: only in a JVM started by {@link Main#main}. */
    static boolean installed() {
        return installed;
    }

    /**
     * The command returned {@code exitCode}. Returns true when a signal is being handled: then the caller must not
     * call System.exit (it would wait forever behind the hook), the hook ends the JVM with this code.
     */
    static boolean finished(int exitCode) {
        code = exitCode;
        FINISHED.countDown();
        return requested;
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
