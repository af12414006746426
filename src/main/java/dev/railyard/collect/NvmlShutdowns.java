package dev.railyard.collect;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * nvmlShutdown after the readings were handed on: it takes 4-9 ms in the driver, which a one-shot inventory need not
 * wait for before writing its output. Each runs on its own thread; one shutdown hook makes the JVM's exit wait for
 * those still running, so the process never ends in the middle of one unless it is killed.
 */
public final class NvmlShutdowns {

    /** Longest the exit waits for a shutdown stuck in the driver. */
    private static final long EXIT_WAIT_MS = 5_000;

    private static final Set<Thread> RUNNING = ConcurrentHashMap.newKeySet();

    /** False when this class was first used with the JVM already shutting down (Ctrl-C mid-read): then inline. */
    private static final boolean EXIT_WAITS = waitAtExit();

    private NvmlShutdowns() {
    }

    private static boolean waitAtExit() {
        try {
            Runtime.getRuntime().addShutdownHook(new Thread(NvmlShutdowns::awaitAll, "railyard-nvml-shutdown-wait"));
            return true;
        } catch (IllegalStateException e) {
            return false; // "Shutdown in progress": no hook can be added now
        }
    }

    /** Runs {@code shutdown} on its own thread, or here when the exit could no longer wait for one. */
    static void start(Runnable shutdown) {
        if (!EXIT_WAITS) {
            shutdown.run();
            return;
        }
        Thread t = Thread.ofPlatform().name("railyard-nvml-shutdown").unstarted(() -> {
            try {
                shutdown.run();
            } finally {
                RUNNING.remove(Thread.currentThread());
            }
        });
        RUNNING.add(t);
        t.start();
    }

    /**
     * Waits (5 s at most in all) until no shutdown is running, those started meanwhile included: the exit's hook,
     * and a test's check.
     */
    public static void awaitAll() {
        long deadline = System.nanoTime() + EXIT_WAIT_MS * 1_000_000;
        while (!RUNNING.isEmpty()) {
            for (Thread t : Set.copyOf(RUNNING)) {
                long left = (deadline - System.nanoTime()) / 1_000_000;
                if (left <= 0) return;
                try {
                    t.join(left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }
}
