package dev.railyard.cli;

import java.io.PrintWriter;
import java.time.Duration;

/** A line every few seconds while fio runs (it prints nothing until it ends, up to --runtime later). */
final class FioProgress implements AutoCloseable {

    private final Thread ticker;

    private FioProgress(Thread ticker) {
        this.ticker = ticker;
    }

    static FioProgress start(PrintWriter progress, String job, int runtimeSeconds, Duration every) {
        long started = System.nanoTime();
        Thread t = Thread.ofVirtual().name("fio-progress").start(() -> {
            try {
                while (true) {
                    Thread.sleep(every);
                    long seconds = (System.nanoTime() - started) / 1_000_000_000L;
                    synchronized (progress) {
                        progress.println(line(job, seconds, runtimeSeconds));
                        progress.flush();
                    }
                }
            } catch (InterruptedException done) {
                // fio finished
            }
        });
        return new FioProgress(t);
    }

    /**
     * "fio write: 5 s, at most 5 s left": fio stops a job at --runtime or when the file is done, whichever comes
     * first, so the time left is at most the rest of the runtime. Past it, fio is still laying out or flushing the
     * file, which takes as long as the disk needs.
     */
    static String line(String job, long seconds, int runtimeSeconds) {
        if (seconds < runtimeSeconds) {
            return "  fio " + job + ": " + seconds + " s, at most " + (runtimeSeconds - seconds) + " s left";
        }
        return "  fio " + job + ": " + seconds + " s, past its " + runtimeSeconds
                + " s runtime: fio is laying out or flushing the file";
    }

    @Override
    public void close() {
        ticker.interrupt();
        try {
            ticker.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
