package dev.railyard.collect;

import dev.railyard.platform.Clock;

import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * Each source of the agent's inventory read on a thread of its own with a deadline of its own, so one read that
 * blocks (a FIFO where a counter was, a hung device file, NVML stuck in the driver) costs its own components and not
 * the whole sample. A source whose read is still blocked is not read again: its thread stays parked in the kernel
 * until the read returns, so at most one thread per source is ever stuck.
 */
public final class SourceReads {

    /** The inventory's sources, each read as one unit. */
    public enum Source {
        PCI("PCI devices"), GPU("GPUs"), INFINIBAND("RDMA ports"), NET("network interfaces"), HOST("host settings"),
        KERNEL_LOG("kernel log"), HOSTNAME("hostname");

        private final String words;

        Source(String words) {
            this.words = words;
        }

        public String words() {
            return words;
        }
    }

    /** A source that gave no answer in time: its readings this sample are the last ones, and not to be trusted. */
    public record Stuck(Source source, Instant since, String why) {}

    /** A read started; {@link #await} gives its value or says it is stuck. */
    public final class Pending<T> {
        private final Source source;
        private final FutureTask<T> task;
        private final long startedNanos;

        private Pending(Source source, FutureTask<T> task, long startedNanos) {
            this.source = source;
            this.task = task;
            this.startedNanos = startedNanos;
        }
    }

    /** The value read, or the source stuck with since when and why. */
    public sealed interface Outcome<T> {
        record Read<T>(T value) implements Outcome<T> {}

        record NotRead<T>(Stuck stuck) implements Outcome<T> {}
    }

    private final Duration deadline;
    private final Clock clock;
    private final Map<Source, FutureTask<?>> running = new EnumMap<>(Source.class);
    private final Map<Source, Instant> stuckSince = new EnumMap<>(Source.class);
    private final Map<Source, ExecutorService> readers = new EnumMap<>(Source.class);

    /**
     * One thread per source for the agent's whole life, not one per read: NVML keeps state for each thread that
     * calls it. With a new GPU thread each second, the agent on 2 x H200 aborted in free() ("munmap_chunk(): invalid
     * pointer", "double free or corruption") on that thread within 1-3 NCCL jobs ending beside it, in each of three
     * tries; with one thread it lived through 9 (docs/benchmarks.md, "Agent metrics against nvidia-smi").
     */
    private static ExecutorService reader(Source source) {
        return Executors.newSingleThreadExecutor(r -> Thread.ofPlatform().daemon()
                .name("railyard-read-" + source.name().toLowerCase(java.util.Locale.ROOT)).unstarted(r));
    }

    public SourceReads(Duration deadline, Clock clock) {
        if (deadline.isNegative() || deadline.isZero()) throw new IllegalArgumentException("deadline must be positive");
        this.deadline = deadline;
        this.clock = clock;
    }

    public Duration deadline() {
        return deadline;
    }

    /** Starts reading {@code source} unless its last read is still blocked. */
    public synchronized <T> Pending<T> start(Source source, Supplier<T> read) {
        FutureTask<?> previous = running.get(source);
        if (previous != null && !previous.isDone()) return new Pending<>(source, null, System.nanoTime());
        FutureTask<T> task = new FutureTask<>(read::get);
        running.put(source, task);
        readers.computeIfAbsent(source, SourceReads::reader).execute(task);
        return new Pending<>(source, task, System.nanoTime());
    }

    /**
     * Waits for the read until its deadline (counted from its start). A read that threw, or one past its deadline,
     * is not read, with why; only an Error is thrown on.
     */
    public <T> Outcome<T> await(Pending<T> p) {
        if (p.task != null) {
            // real time, not the injected clock: the wait is the JDK's own, and a stepped clock does not move during it
            long left = deadline.toNanos() - (System.nanoTime() - p.startedNanos);
            try {
                T value = p.task.get(Math.max(0, left), TimeUnit.NANOSECONDS);
                synchronized (this) {
                    stuckSince.remove(p.source);
                }
                return new Outcome.Read<>(value);
            } catch (TimeoutException e) {
                // falls through: stuck
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while reading the " + p.source.words(), e);
            } catch (ExecutionException e) {
                if (e.getCause() instanceof Error err) throw err;
                // a reader that throws costs its own source's components, as one that blocks does, not the sample
                Instant since;
                synchronized (this) {
                    since = stuckSince.computeIfAbsent(p.source, s -> clock.now());
                }
                return new Outcome.NotRead<>(new Stuck(p.source, since, "reading the " + p.source.words() + " failed: "
                        + e.getCause() + "; not judged until they read"));
            }
        }
        Instant since;
        synchronized (this) {
            since = stuckSince.computeIfAbsent(p.source, s -> clock.now());
        }
        String why = p.task != null
                ? "the " + p.source.words() + " gave no answer within " + deadline.toMillis() + " ms"
                : "the " + p.source.words() + " still give no answer (a read blocked since " + since + ")";
        return new Outcome.NotRead<>(new Stuck(p.source, since, why + "; not judged until they answer"));
    }

    /**
     * Waits, {@code max} at most, until no read is running: the agent's exit, so that no thread is inside NVML while
     * the process's exit handlers tear the library down. Returns whether all had returned.
     */
    public boolean awaitIdle(Duration max) {
        long end = System.nanoTime() + max.toNanos();
        List<FutureTask<?>> tasks;
        synchronized (this) {
            tasks = List.copyOf(running.values());
        }
        for (FutureTask<?> t : tasks) {
            try {
                t.get(Math.max(0, end - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (ExecutionException e) {
                // its failure was reported by the sample that awaited it
            } catch (TimeoutException e) {
                return false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }

    /** Sources blocked now, for tests and the bounded-thread promise. */
    public synchronized int blocked() {
        return (int) running.values().stream().filter(t -> !t.isDone()).count();
    }
}
