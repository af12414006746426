package dev.railyard.bench.burn;

import dev.railyard.model.BurnResult;
import dev.railyard.model.BurnResult.Checksum;
import dev.railyard.model.BurnResult.Phase;
import dev.railyard.model.BurnResult.Precision;
import dev.railyard.model.BurnResult.Sample;
import dev.railyard.model.Gpu;
import dev.railyard.model.GpuSensors;
import dev.railyard.model.RailyardException;
import dev.railyard.model.Reading;
import dev.railyard.model.XidEvent;
import dev.railyard.nativelib.FfmCublasLt;
import dev.railyard.nativelib.FfmCuda;
import dev.railyard.platform.Cancellation;
import dev.railyard.platform.Clock;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * {@code railyard burn}'s engine: every GPU of the node multiplies matrices for the duration, one thread per GPU, while
 * this thread samples them each second; then each GPU's results are read back and checked. A stop (the process's
 * {@link Cancellation}) ends the load where it is and keeps what was measured. A GPU whose load fails keeps its
 * failure and the others go on. Judging is {@code check.BurnVerdict}'s.
 */
public final class GpuBurn {

    private final FfmCuda cuda;
    private final FfmCublasLt cublasLt;
    private final Supplier<Reading<List<Gpu>>> nvml;
    private final Function<List<String>, Reading<List<GpuSensors>>> sensors;
    private final Supplier<Reading<List<XidEvent>>> kernelLog;
    private final Clock clock;

    /**
     * @param nvml      every GPU as NVML reads it (without NVLink error counters), or why it cannot: read before the
     *                  load and after it
     * @param sensors   the one-second readings of the GPUs at these PCI addresses, in their order (the light read,
     *                  {@code NvmlSensors}), or why there are none
     * @param kernelLog the Xid events in the kernel log now
     */
    public GpuBurn(FfmCuda cuda, FfmCublasLt cublasLt, Supplier<Reading<List<Gpu>>> nvml,
                   Function<List<String>, Reading<List<GpuSensors>>> sensors,
                   Supplier<Reading<List<XidEvent>>> kernelLog, Clock clock) {
        this.cuda = cuda;
        this.cublasLt = cublasLt;
        this.nvml = nvml;
        this.sensors = sensors;
        this.kernelLog = kernelLog;
        this.clock = clock;
    }

    /** A loaded GPU's state over the phases: its counter, what it measured, and its failure once it has one. */
    private static final class Loaded {
        final int device;
        final String pci;
        final int capability;
        final List<Phase> phases = new ArrayList<>();
        volatile String failure;
        final LoadCounter counter = new LoadCounter();

        Loaded(int device, String pci, int capability) {
            this.device = device;
            this.pci = pci;
            this.capability = capability;
        }
    }

    /**
     * Loads the GPUs for {@code options.duration()} (less when {@code stop} is cancelled) and returns what was
     * measured. Throws a usage error for a device that does not exist or a precision a GPU lacks.
     */
    public BurnResult run(BurnOptions options, Cancellation stop, BurnProgress progress) throws InterruptedException {
        int count = cuda.deviceCount();
        if (count == 0) throw new RailyardException.MissingPrerequisite("no NVIDIA GPU (cudaGetDeviceCount is 0)",
                "check that the NVIDIA driver is loaded and sees the GPUs: nvidia-smi");
        for (int d : options.devices()) {
            if (d < 0 || d >= count) {
                throw new RailyardException.Usage("GPU " + d + " does not exist (" + count + " found)", "see railyard inventory");
            }
        }
        List<Integer> devices = options.devices().isEmpty()
                ? java.util.stream.IntStream.range(0, count).boxed().toList() : options.devices();
        List<Loaded> gpus = new ArrayList<>();
        for (int d : devices) gpus.add(new Loaded(d, cuda.pciBusId(d), cuda.computeCapability(d)));
        List<Precision> precisions = precisions(options, gpus.stream().mapToInt(g -> g.capability).min().orElse(0));
        Reading<List<Gpu>> before = nvml.get();
        Reading<List<XidEvent>> xidsBefore = kernelLog.get();
        MatrixInputs inputs = MatrixInputs.seeded(options.matrixSize(), options.seed());

        AtomicBoolean stopped = new AtomicBoolean();
        Semaphore wake = new Semaphore(0);
        Map<Integer, List<Sample>> samples = new LinkedHashMap<>();
        for (Loaded g : gpus) samples.put(g.device, new ArrayList<>());
        List<BurnSampler.Target> targets = gpus.stream()
                .map(g -> new BurnSampler.Target(g.device, g.pci, g.counter)).toList();
        BurnSampler sampler = new BurnSampler(targets, sensors, samples);
        java.time.Instant started = clock.now();
        long t0 = clock.nanoTime();
        Duration share = options.duration().dividedBy(precisions.size());
        try (Cancellation.Registration r = stop.onCancel(() -> {
            stopped.set(true);
            wake.release();
        })) {
            long nextTick = t0 + options.samplePeriod().toNanos();
            for (int p = 0; p < precisions.size() && !stopped.get(); p++) {
                Precision precision = precisions.get(p);
                progress.phase(precision, share);
                long deadline = t0 + share.toNanos() * (p + 1);
                byte[] a = inputs.encodedA(precision), b = inputs.encodedB(precision);
                List<Thread> workers = new ArrayList<>();
                for (Loaded g : gpus) {
                    if (g.failure != null) continue;
                    workers.add(Thread.ofPlatform().name("burn-gpu" + g.device).start(() -> {
                        try {
                            load(g, precision, inputs, a, b, () -> stopped.get() || clock.nanoTime() >= deadline);
                        } finally {
                            wake.release();
                        }
                    }));
                }
                while (workers.stream().anyMatch(Thread::isAlive)) {
                    long wait = nextTick - clock.nanoTime();
                    if (wait > 0 && wake.tryAcquire(wait, TimeUnit.NANOSECONDS)) continue;
                    if (clock.nanoTime() < nextTick) continue;
                    progress.sampled((clock.nanoTime() - t0) / 1e9, sampler.sample((clock.nanoTime() - t0) / 1e9, precision));
                    nextTick += options.samplePeriod().toNanos();
                }
                for (Thread w : workers) w.join();
            }
        }
        Duration ran = Duration.ofNanos(clock.nanoTime() - t0);
        Reading<List<Gpu>> after = nvml.get();
        Reading<List<XidEvent>> xidsAfter = kernelLog.get();

        List<BurnResult.Gpu> results = new ArrayList<>();
        for (Loaded g : gpus) {
            Reading<Gpu> b = find(before, g.pci), af = find(after, g.pci);
            results.add(new BurnResult.Gpu(g.device, g.pci, field(b.isPresent() ? b : af, Gpu::name), g.capability,
                    withSampleRange(g.phases, samples.get(g.device)), samples.get(g.device),
                    field(b, Gpu::ecc), field(af, Gpu::ecc), field(b, Gpu::remappedRows), field(af, Gpu::remappedRows),
                    g.failure == null ? Reading.absent("the load ran to its end") : Reading.of(g.failure)));
        }
        boolean complete = !stopped.get();
        return new BurnResult(started, options.duration(), ran, complete,
                complete ? "" : "stopped by " + stop.reason().orElse("a stop"), options.matrixSize(),
                options.tolerancePercent(), results,
                NodePlan.power(sampler.peakWatts(), before, gpus.size(), options), newXids(xidsBefore, xidsAfter),
                new BurnResult.SamplerCost(sampler.count(), sampler.cpuSeconds(), ran.toNanos() / 1e9));
    }

    /** The precisions asked for, or the best the least capable GPU has; one a GPU lacks is a usage error. */
    static List<Precision> precisions(BurnOptions options, int capability) {
        if (options.precisions().isEmpty()) return BurnOptions.bestFor(capability);
        for (Precision p : options.precisions()) {
            if (capability < BurnOptions.minimumCapability(p)) {
                throw new RailyardException.Usage(String.format(java.util.Locale.ROOT,
                        "%s needs compute capability %.1f or later; this node's GPUs have %.1f", p,
                        BurnOptions.minimumCapability(p) / 10.0, capability / 10.0), "e.g. --precision "
                        + BurnOptions.bestFor(capability).getLast().name().toLowerCase(java.util.Locale.ROOT));
            }
        }
        return options.precisions();
    }

    /** One GPU, one phase: load until {@code stop}, then check the results; a failure is kept, not thrown. */
    private void load(Loaded g, Precision precision, MatrixInputs inputs, byte[] a, byte[] b,
                      java.util.function.BooleanSupplier stop) {
        GpuLoad load = null;
        long begun;
        try {
            load = new GpuLoad(cuda, cublasLt, g.device, precision, inputs, a, b);
            begun = clock.nanoTime();
            LoadCounter.Snapshot from = g.counter.read();
            load.run(g.counter, () -> stop.getAsBoolean() || g.failure != null, clock::nanoTime);
            double wall = (clock.nanoTime() - begun) / 1e9;
            LoadCounter.Snapshot end = g.counter.read();
            LoadCounter.Snapshot done = new LoadCounter.Snapshot(end.multiplies() - from.multiplies(),
                    end.flops() - from.flops(), end.gpuNanos() - from.gpuNanos());
            Reading<Checksum> checksum = done.multiplies() == 0 ? Reading.absent("no multiply finished")
                    : Reading.of(load.verify(inputs, BurnOptions.TILE));
            g.phases.add(new Phase(precision, done.multiplies(), done.gpuNanos() / 1e9, wall,
                    done.gpuNanos() == 0 ? 0 : done.flops() / done.gpuNanos() / 1e3,
                    wall <= 0 ? 0 : done.flops() / wall / 1e12, Reading.absent("no sample"), Reading.absent("no sample"),
                    (int) Math.min(Integer.MAX_VALUE, load.slots()), checksum));
        } catch (RuntimeException e) {
            g.failure = precision + ": " + e.getMessage();
        } finally {
            if (load != null) {
                try {
                    load.close();
                } catch (RuntimeException e) {
                    if (g.failure == null) g.failure = precision + ": releasing the GPU's memory: " + e.getMessage();
                }
            }
        }
    }

    /** Each phase with the lowest and highest TFLOP/s of its one-second samples. */
    private static List<Phase> withSampleRange(List<Phase> phases, List<Sample> samples) {
        List<Phase> out = new ArrayList<>();
        for (Phase p : phases) {
            var tf = samples.stream().filter(s -> s.precision() == p.precision())
                    .flatMap(s -> s.tflops().optional().stream()).mapToDouble(Double::doubleValue).summaryStatistics();
            Reading<Double> min = tf.getCount() == 0 ? Reading.absent("no one-second sample had a finished multiply")
                    : Reading.of(tf.getMin());
            Reading<Double> max = tf.getCount() == 0 ? min : Reading.of(tf.getMax());
            out.add(new Phase(p.precision(), p.multiplies(), p.gpuSeconds(), p.wallSeconds(), p.tflops(),
                    p.sustainedTflops(), min, max, p.resultSlots(), p.checksum()));
        }
        return out;
    }

    /** Xid lines in the log after the load that were not in it before (each line counted, so a repeat is new). */
    static Reading<List<XidEvent>> newXids(Reading<List<XidEvent>> before, Reading<List<XidEvent>> after) {
        if (!(after instanceof Reading.Present<List<XidEvent>>(List<XidEvent> now))) return after;
        if (!(before instanceof Reading.Present<List<XidEvent>>(List<XidEvent> then))) {
            return Reading.absent("the kernel log could not be read before the load: " + before.describe());
        }
        List<String> old = new ArrayList<>(then.stream().map(XidEvent::line).toList());
        List<XidEvent> fresh = new ArrayList<>();
        for (XidEvent e : now) if (!old.remove(e.line())) fresh.add(e);
        return Reading.of(fresh);
    }

    static Reading<Gpu> find(Reading<List<Gpu>> read, String pci) {
        return switch (read) {
            case Reading.Present<List<Gpu>>(List<Gpu> list) -> list.stream().filter(g -> g.pciAddress().equalsIgnoreCase(pci))
                    .findFirst().map(Reading::of).orElseGet(() -> Reading.absent("NVML lists no GPU at " + pci));
            case Reading.Absent<List<Gpu>>(String why) -> Reading.absent(why);
            case Reading.Failed<List<Gpu>>(String path, String cause) -> Reading.failed(path, cause);
        };
    }

    static <T> Reading<T> field(Reading<Gpu> gpu, java.util.function.Function<Gpu, Reading<T>> f) {
        return switch (gpu) {
            case Reading.Present<Gpu>(Gpu g) -> f.apply(g);
            case Reading.Absent<Gpu>(String why) -> Reading.absent(why);
            case Reading.Failed<Gpu>(String path, String cause) -> Reading.failed(path, cause);
        };
    }
}
