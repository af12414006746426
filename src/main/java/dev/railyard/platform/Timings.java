package dev.railyard.platform;

import dev.railyard.model.Reading;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
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

    private static final Timings OFF = new Timings(false, OptionalDouble.empty(), 0);

    /** The kernel's clock tick for /proc/PID/stat (USER_HZ: 100 on every Linux architecture Railyard runs on). */
    static final int USER_HZ = 100;

    private final boolean on;
    /** Milliseconds from the process's start (the launcher's, or the kernel's record of it) to main, when known. */
    private final OptionalDouble startToMainMs;
    /** System.nanoTime at main: every phase is placed against it. */
    private final long mainNanoTime;
    private final List<Phase> phases = Collections.synchronizedList(new ArrayList<>());

    private Timings(boolean on, OptionalDouble startToMainMs, long mainNanoTime) {
        this.on = on;
        this.startToMainMs = startToMainMs;
        this.mainNanoTime = mainNanoTime;
    }

    public static Timings off() {
        return OFF;
    }

    /**
     * Started at main. The time from the process's start to main is measured on one clock: the launcher's
     * {@code date +%s%N} against the wall clock now (exact), else the kernel's start time of this process against
     * its uptime, both counted from boot (to 10 ms). Never the JDK's ProcessHandle start instant: it adds the boot
     * time /proc/stat rounds down to whole seconds, so it was up to a second early (1013 ms "JVM start" in a 508 ms
     * run on 2 x H200).
     */
    public static Timings startedAtMain(OptionalLong launcherEpochNanos) {
        return startedAtMain(launcherEpochNanos, HostRoot.live());
    }

    static Timings startedAtMain(OptionalLong launcherEpochNanos, HostRoot proc) {
        OptionalDouble startToMain;
        if (launcherEpochNanos.isPresent()) {
            Instant now = Instant.now();
            long epoch = now.getEpochSecond() * 1_000_000_000L + now.getNano();
            startToMain = OptionalDouble.of((epoch - launcherEpochNanos.getAsLong()) / 1e6);
        } else {
            startToMain = sinceProcessStartMs(proc, ProcessHandle.current().pid());
        }
        // "main" is the moment the clock above was read, not before: loading the classes that read /proc took
        // tens of ms on a cold JVM, and counting them twice made the total longer than the process lived
        long nano = System.nanoTime();
        Timings t = new Timings(true, startToMain, nano);
        startToMain.ifPresent(ms -> t.phases.add(new Phase("JVM start to main (launcher, JVM boot, class loading)",
                Thread.currentThread().getName(), 0, ms)));
        return t;
    }

    /**
     * Milliseconds since process {@code pid} started: /proc/uptime minus field 22 of /proc/PID/stat (clock ticks
     * since boot), both on the kernel's boot clock; empty when either cannot be read.
     */
    public static OptionalDouble sinceProcessStartMs(HostRoot proc, long pid) {
        Reading<String> stat = proc.read("proc/" + pid + "/stat");
        Reading<String> uptime = proc.read("proc/uptime");
        if (stat.optional().isEmpty() || uptime.optional().isEmpty()) return OptionalDouble.empty();
        try {
            // the command name (field 2) is in parentheses and may hold spaces and ')': count from the last ')'
            String afterName = stat.optional().get().substring(stat.optional().get().lastIndexOf(')') + 2);
            long startTicks = Long.parseLong(afterName.split(" ")[19]);
            double upSeconds = Double.parseDouble(uptime.optional().get().trim().split("\\s+")[0]);
            double ms = upSeconds * 1e3 - startTicks * 1e3 / USER_HZ;
            return ms < 0 ? OptionalDouble.empty() : OptionalDouble.of(ms);
        } catch (RuntimeException e) {
            return OptionalDouble.empty();
        }
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

    /**
     * Records a phase made of many pieces (a sweep's timed loops over all its sizes): placed at its first piece's
     * start, {@code totalNanos} long in all.
     */
    public void recordSum(String name, long firstStartNanoTime, long totalNanos) {
        if (!on) return;
        phases.add(new Phase(name, Thread.currentThread().getName(), sinceStartMs(firstStartNanoTime), totalNanos / 1e6));
    }

    private double sinceStartMs(long nanoTime) {
        return startToMainMs.orElse(0) + (nanoTime - mainNanoTime) / 1e6;
    }

    public List<Phase> phases() {
        synchronized (phases) {
            return List.copyOf(phases);
        }
    }

    /** The table for stderr: each phase with its start, length and thread, then the total so far. */
    public String render() {
        // the total ends here: formatting this table took 11-16 ms on a cold JVM (Formatter's first use), which is
        // not the command's time
        double totalMs = sinceStartMs(System.nanoTime());
        StringBuilder out = new StringBuilder("railyard timings (ms; start is since the JVM started"
                + (startToMainMs.isPresent() ? "" : ", unknown here: since main") + ")\n");
        out.append(String.format(Locale.ROOT, "  %8s %8s  %-14s %s%n", "START", "MS", "THREAD", "PHASE"));
        List<Phase> sorted = new ArrayList<>(phases());
        sorted.sort((a, b) -> Double.compare(a.startMs(), b.startMs()));
        for (Phase p : sorted) {
            out.append(String.format(Locale.ROOT, "  %8.1f %8.1f  %-14s %s%n", p.startMs(), p.ms(), p.thread(), p.name()));
        }
        out.append(String.format(Locale.ROOT, "  %8s %8.1f  %-14s %s%n", "", totalMs, "", "total"));
        return out.toString();
    }
}
