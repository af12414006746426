package dev.railyard.platform;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The one cancellation token of a Railyard process: the CLI creates it, a stop signal cancels it once, and every long
 * step holds it. A step registers what makes it stop where it is (interrupt its thread, close its launcher, tell fio
 * to end), checks {@link #cancelled()} between steps, and leaves what it measured. Actions registered after the
 * cancel run at once, so a step that starts late still stops.
 */
public final class Cancellation {

    /** Takes a registered action back (the step is past the part it guards). */
    public interface Registration extends AutoCloseable {
        @Override
        void close();
    }

    private final List<Runnable> actions = new CopyOnWriteArrayList<>();
    private volatile String reason;

    /** A token nothing cancels but a call to {@link #cancel}: tests, and code run outside the CLI. */
    public static Cancellation create() {
        return new Cancellation();
    }

    private Cancellation() {
    }

    public boolean cancelled() {
        return reason != null;
    }

    /** Whether any step has registered how it stops. */
    public boolean watched() {
        return !actions.isEmpty();
    }

    /** Why it was cancelled ("SIGINT"), once it was. */
    public Optional<String> reason() {
        return Optional.ofNullable(reason);
    }

    /**
     * Cancels with {@code why}; the first call runs every registered action in the order registered (one that fails
     * does not keep the next from running). Later calls do nothing.
     */
    public void cancel(String why) {
        synchronized (actions) {
            if (reason != null) return;
            reason = why;
        }
        for (Runnable r : actions) runQuietly(r);
    }

    /** Registers {@code action} to run on cancel; runs it at once when the token is cancelled already. */
    public Registration onCancel(Runnable action) {
        boolean now;
        synchronized (actions) {
            now = reason != null;
            if (!now) actions.add(action);
        }
        if (now) runQuietly(action);
        return () -> actions.remove(action);
    }

    /** Throws when cancelled: a step about to start does not. */
    public void throwIfCancelled() throws InterruptedException {
        if (cancelled()) throw new InterruptedException("stopped: " + reason);
    }

    private static void runQuietly(Runnable r) {
        try {
            r.run();
        } catch (RuntimeException e) {
            // one step failing to stop must not keep the others from stopping
        }
    }
}
