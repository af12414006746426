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
                        progress.println("  fio " + job + ": " + seconds + " s of at most " + runtimeSeconds + " s");
                        progress.flush();
                    }
                }
            } catch (InterruptedException done) {
                // fio finished
            }
        });
        return new FioProgress(t);
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
