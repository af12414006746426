package dev.railyard.cluster;

import dev.railyard.platform.Clock;

import java.io.PrintWriter;
import java.time.Duration;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Where validate says how far it is: steps done of the total, the current phase or round, and an ETA from the pace so
 * far. On a terminal one line redrawn in place; otherwise plain timestamped lines (logs, CI), one per event.
 * Calls come from many threads.
 */
public abstract class Progress {

    private final AtomicInteger total = new AtomicInteger();
    private final AtomicInteger done = new AtomicInteger();
    private volatile String phase = "starting";
    protected final Clock clock;
    private final long startNanos;

    protected Progress(Clock clock) {
        this.clock = clock;
        this.startNanos = clock.nanoTime();
    }

    /** More steps became known (a network's schedule, a retest). */
    public void addSteps(int n) {
        total.addAndGet(n);
        redraw(null);
    }

    public void phase(String text) {
        phase = text;
        redraw(null);
    }

    public void stepDone(String what) {
        done.incrementAndGet();
        redraw(what);
    }

    /** Something the user should read even on a terminal (a node unreachable). */
    public abstract void note(String line);

    public abstract void finish();

    protected abstract void redraw(String event);

    protected String status() {
        int d = done.get();
        int t = Math.max(total.get(), d);
        return String.format(Locale.ROOT, "%d/%d steps, %s%s", d, t, phase, eta(d, t));
    }

    private String eta(int d, int t) {
        if (d == 0 || d >= t) return "";
        long elapsed = clock.nanoTime() - startNanos;
        long left = elapsed / d * (t - d);
        Duration eta = Duration.ofNanos(left);
        return String.format(Locale.ROOT, ", ETA %d:%02d", eta.toMinutes(), eta.toSecondsPart());
    }

    public static Progress none() {
        return new Progress(Clock.system()) {
            @Override public void note(String line) { }
            @Override public void finish() { }
            @Override protected void redraw(String event) { }
        };
    }

    /**
     * Timestamped lines on {@code err}, for logs: phases (nodes, each network's rounds, benchmarks) and notes, with the
     * step count and ETA; single steps are counted, not printed (a 512-node sweep has hundreds of thousands).
     */
    public static Progress lines(PrintWriter err, Clock clock) {
        DateTimeFormatter fmt = DateTimeFormatter.ofPattern("HH:mm:ss");
        return new Progress(clock) {
            private String stamp() {
                return LocalTime.ofInstant(clock.now(), ZoneOffset.UTC).format(fmt) + "Z validate: ";
            }
            @Override public synchronized void note(String line) {
                err.println(stamp() + line);
                err.flush();
            }
            @Override public void finish() { }
            @Override public void phase(String text) {
                super.phase(text);
                synchronized (this) {
                    err.println(stamp() + text + " (" + status() + ")");
                    err.flush();
                }
            }
            @Override protected void redraw(String event) { }
        };
    }

    /** One line redrawn in place with a bar, for a terminal. */
    public static Progress terminal(PrintWriter err, Clock clock) {
        return new Progress(clock) {
            private int width;
            @Override public synchronized void note(String line) {
                clear();
                err.println(line);
                err.flush();
                redraw(null);
            }
            @Override public synchronized void finish() {
                clear();
                err.flush();
            }
            @Override protected synchronized void redraw(String event) {
                String line = "validate " + status();
                if (line.length() > 118) line = line.substring(0, 117) + "…";
                clear();
                err.print(line);
                err.flush();
                width = line.length();
            }
            private void clear() {
                if (width > 0) err.print("\r" + " ".repeat(width) + "\r");
                width = 0;
            }
        };
    }
}
