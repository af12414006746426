package dev.railyard.platform;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.function.Supplier;

/**
 * Where a command's time goes ({@code inventory --timings}, RAILYARD_TIMINGS=1): named phases with their thread,
 * start and length, from the JVM's own start to the last byte written. {@link #off()} records nothing and costs a
 * branch, so the phases can stay marked in the code.
 */
public final class Timings {

    /** One phase: when it started after the JVM did, how long it took, on which thread. */
    public record Phase(String name, String thread, double startMs, double ms) {}

    private static final Timings OFF = new Timings(false, OptionalLong.empty(), 0, 0);

    private final boolean on;
    /** The process's start in epoch nanoseconds, when known (the launcher's clock, or /proc). */
    private final OptionalLong processStartEpochNanos;
    /** A moment known on both clocks: nanoTime at main and the epoch time then. */
    private final long mainNanoTime;
    private final long mainEpochNanos;
    private final List<Phase> phases = Collections.synchronizedList(new ArrayList<>());

    private Timings(boolean on, OptionalLong processStartEpochNanos, long mainNanoTime, long mainEpochNanos) {
        this.on = on;
        this.processStartEpochNanos = processStartEpochNanos;
        this.mainNanoTime = mainNanoTime;
        this.mainEpochNanos = mainEpochNanos;
    }

    public static Timings off() {
        return OFF;
    }

    /**
     * Started at main: the JVM's start comes from {@code launcherEpochNanos} (the launcher's date +%s%N, exact) or the
     * process start time the kernel keeps (to 10 ms), whichever is known.
     */
    public static Timings startedAtMain(OptionalLong launcherEpochNanos) {
        long nano = System.nanoTime();
        Instant now = Instant.now();
        long epoch = now.getEpochSecond() * 1_000_000_000L + now.getNano();
        OptionalLong start = launcherEpochNanos.isPresent() ? launcherEpochNanos : ProcessHandle.current().info().startInstant()
                .map(i -> OptionalLong.of(i.getEpochSecond() * 1_000_000_000L + i.getNano())).orElse(OptionalLong.empty());
        Timings t = new Timings(true, start, nano, epoch);
        start.ifPresent(s -> t.phases.add(new Phase("JVM start to main (launcher, JVM boot, class loading)",
                Thread.currentThread().getName(), 0, (epoch - s) / 1e6)));
        return t;
    }

    public boolean on() {
        return on;
    }

    /** Runs {@code work} as the named phase. */
    public <T> T time(String name, Supplier<T> work) {
        if (!on) return work.get();
        long start = System.nanoTime();
        try {
            return work.get();
        } finally {
            record(name, start);
        }
    }

    public void time(String name, Runnable work) {
        time(name, () -> {
            work.run();
            return null;
        });
    }

    /** Records a phase that began at {@code startNanoTime} (System.nanoTime) and ends now. */
    public void record(String name, long startNanoTime) {
        if (!on) return;
        long end = System.nanoTime();
        phases.add(new Phase(name, Thread.currentThread().getName(), sinceStartMs(startNanoTime), (end - startNanoTime) / 1e6));
    }

    private double sinceStartMs(long nanoTime) {
        double offset = processStartEpochNanos.isPresent() ? (mainEpochNanos - processStartEpochNanos.getAsLong()) / 1e6 : 0;
        return offset + (nanoTime - mainNanoTime) / 1e6;
    }

    public List<Phase> phases() {
        synchronized (phases) {
            return List.copyOf(phases);
        }
    }

    /** The table for stderr: each phase with its start, length and thread, then the total so far. */
    public String render() {
        StringBuilder out = new StringBuilder("railyard timings (ms; start is since the JVM started"
                + (processStartEpochNanos.isPresent() ? "" : ", unknown here: since main") + ")\n");
        out.append(String.format(Locale.ROOT, "  %8s %8s  %-14s %s%n", "START", "MS", "THREAD", "PHASE"));
        List<Phase> sorted = new ArrayList<>(phases());
        sorted.sort((a, b) -> Double.compare(a.startMs(), b.startMs()));
        for (Phase p : sorted) {
            out.append(String.format(Locale.ROOT, "  %8.1f %8.1f  %-14s %s%n", p.startMs(), p.ms(), p.thread(), p.name()));
        }
        out.append(String.format(Locale.ROOT, "  %8s %8.1f  %-14s %s%n", "", sinceStartMs(System.nanoTime()), "", "total"));
        return out.toString();
    }
}
