package dev.railyard.bench.nccl;

import dev.railyard.model.NcclSizeResult;

import dev.railyard.nativelib.CudaEvent;
import dev.railyard.nativelib.DeviceBuffer;
import dev.railyard.nativelib.FfmCuda;
import dev.railyard.nativelib.FfmNccl;
import dev.railyard.platform.Timings;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Runs an nccl-tests style sweep over the GPUs this process drives: for each size, warm-up, timed iterations between
 * CUDA events on every stream (time = slowest stream / iterations), then one verified run.
 */
public final class NcclBenchmark {

    /** More than the 127 calls after which the JDK customizes a method handle (see warmUpTheJvm). */
    static final int PATH_WARMUP_PASSES = 160;
    /** The call on which the JDK customizes a downcall handle (1-2.5 ms). */
    static final int CUSTOMIZING_CALL = 128;
    /**
     * Sweeps whose smallest size is this or more skip the launch warm-up: one iteration at 256 MiB takes 270 us or
     * more even at 1 TB/s, far above what an interpreted launch costs, and launches queue ahead of the GPU.
     */
    static final long LAUNCH_WARMUP_BELOW_BYTES = 256L << 20;

    /** What runs before the sweep: launches of the smallest message, then passes through the measuring code. */
    record WarmUp(int launches, int passes) {}

    private final FfmCuda cuda;
    private final FfmNccl nccl;
    private final List<NcclRank> ranks;
    private final int nranks;
    private final RankGroup group;
    private final NcclBenchConfig cfg;
    private final Timings timings;
    private final Phases phases = new Phases();
    /** The warm-up to run; null: {@link #warmUpFor} decides. */
    private WarmUp warmUp;

    public NcclBenchmark(FfmCuda cuda, FfmNccl nccl, List<NcclRank> ranks, int nranks, RankGroup group,
                         NcclBenchConfig cfg) {
        this(cuda, nccl, ranks, nranks, group, cfg, Timings.off());
    }

    public NcclBenchmark(FfmCuda cuda, FfmNccl nccl, List<NcclRank> ranks, int nranks, RankGroup group,
                         NcclBenchConfig cfg, Timings timings) {
        this.timings = timings;
        this.cuda = cuda;
        this.nccl = nccl;
        this.ranks = List.copyOf(ranks);
        this.nranks = nranks;
        this.group = group;
        this.cfg = cfg;
    }

    /** Runs this warm-up instead of the one {@link #warmUpFor} picks (tests). */
    NcclBenchmark warmingUp(WarmUp plan) {
        this.warmUp = plan;
        return this;
    }

    /** Measures every size, handing each row to {@code onRow} as soon as it is known (interrupted runs keep them). */
    public List<NcclSizeResult> run(Consumer<NcclSizeResult> onRow) {
        List<NcclSizeResult> rows = new ArrayList<>();
        try (DataPattern pattern = new DataPattern(cuda)) {
            warmUpTheJvm(pattern, warmUp != null ? warmUp : warmUpFor(cfg, ranks.size(), nranks));
            for (long size = cfg.minBytes(); size <= cfg.maxBytes(); size = cfg.nextSize(size)) {
                long param = cfg.collective().paramCount(size, cfg.type(), nranks);
                if (param == 0) continue;
                NcclSizeResult.Timing oop = measure(param, false, pattern, cfg.warmupIters(), cfg.iters());
                Optional<NcclSizeResult.Timing> ip = cfg.collective().inPlace
                        ? Optional.of(measure(param, true, pattern, cfg.warmupIters(), cfg.iters())) : Optional.empty();
                long shownBytes = Math.max(cfg.collective().sendCount(param, nranks),
                        cfg.collective().recvCount(param, nranks)) * cfg.type().bytes;
                NcclSizeResult row = new NcclSizeResult(shownBytes, shownBytes / cfg.type().bytes, cfg.type().label,
                        cfg.opLabel(), rootShown(), oop, ip);
                rows.add(row);
                onRow.accept(row);
                if (cfg.stepFactor() <= 1 && cfg.stepBytes() <= 0) break;
            }
        }
        phases.report(timings);
        return rows;
    }

    /**
     * Untimed work at the smallest message before measuring anything (nccl-tests' C++ needs no such step):
     * <ol>
     * <li>many launches, so C2 compiles the launch path (it takes over after roughly 15 000 calls) and small-message
     * times measure NCCL rather than the interpreter or the profiling tier;</li>
     * <li>{@value #PATH_WARMUP_PASSES} passes through everything one size's measurement does (events, check, the
     * exchange between ranks). The downcall handles live in fields, not constants, so the JDK rewrites each handle's
     * invocation path (it "customizes" it, generating a class: 1.0-2.5 ms, scripts/HandleCustomizationProbe.java) on
     * its 128th call; when that call was an event record around the timed loop, that size's time grew by a
     * millisecond spread over its iterations (the 1 KiB spikes in docs/benchmarks.md). After these passes every
     * handle is past that call.</li>
     * </ol>
     */
    private void warmUpTheJvm(DataPattern pattern, WarmUp plan) {
        long param = smallestParam();
        if (param == 0) return;
        long started = System.nanoTime();
        for (int i = 0; i < plan.launches(); i++) {
            // both branches, or the first in-place launch of the sweep deoptimises the compiled loop
            launchAll(param, cfg.collective().inPlace && (i & 1) == 1);
            if (i % 256 == 255) synchronizeAll(); // keep the queue of launched operations short
        }
        synchronizeAll();
        if (plan.launches() > 0) timings.record("JIT warm-up: " + plan.launches() + " launches of the smallest size", started);
        started = System.nanoTime();
        for (int i = 0; i < plan.passes(); i++) {
            measure(param, cfg.collective().inPlace && (i & 1) == 1, pattern, 1, 1, false);
        }
        if (plan.passes() > 0) timings.record("JIT warm-up: " + plan.passes() + " passes through the measurement", started);
    }

    /**
     * The warm-up this sweep needs, scaled to the sizes asked for (--jit-warmup 0: none). The launches only matter
     * where a launch's cost shows in an iteration's time (below {@value #LAUNCH_WARMUP_BELOW_BYTES} bytes); the
     * passes only where some handle called inside a timed loop could reach its customizing call during the sweep.
     * {@code -b 2G -e 2G -g 2} needs neither: it launched 20000 small messages and made 160 passes for nothing.
     */
    static WarmUp warmUpFor(NcclBenchConfig cfg, int ranksHere, int nranks) {
        if (cfg.jitWarmupLaunches() <= 0) return new WarmUp(0, 0);
        long smallest = 0;
        int sizes = 0;
        for (long size = cfg.minBytes(); size <= cfg.maxBytes(); size = cfg.nextSize(size)) {
            if (cfg.collective().paramCount(size, cfg.type(), nranks) > 0) {
                if (sizes++ == 0) smallest = size;
            }
            if (cfg.stepFactor() <= 1 && cfg.stepBytes() <= 0) break;
        }
        if (sizes == 0) return new WarmUp(0, 0);
        int launches = smallest < LAUNCH_WARMUP_BELOW_BYTES ? cfg.jitWarmupLaunches() : 0;
        boolean reachesCustomizing = busiestTimedHandleCalls(cfg, sizes, ranksHere, nranks) >= CUSTOMIZING_CALL;
        return new WarmUp(launches, launches > 0 || reachesCustomizing ? PATH_WARMUP_PASSES : 0);
    }

    /**
     * An upper bound on the calls of the busiest handle called inside timed loops (launches, group calls, event
     * records, setDevice) over the whole sweep, set-up included.
     */
    static long busiestTimedHandleCalls(NcclBenchConfig cfg, int sizes, int ranksHere, int nranks) {
        long measures = (long) sizes * (cfg.collective().inPlace ? 2 : 1);
        long launches = measures * (cfg.warmupIters() + cfg.iters() + (cfg.check() ? 1 : 0));
        long perLaunch = switch (cfg.collective()) {
            case ALLTOALL -> (long) ranksHere * nranks + ranksHere + 1;
            case SENDRECV -> ranksHere + 1;
            default -> ranksHere;
        };
        long setDevice = measures * 5L * ranksHere + 3L * ranksHere + 1;
        return Math.max(launches * perLaunch, setDevice);
    }

    /**
     * The smallest element count the collective accepts (its alignment), or 0 when no size of the sweep runs: warm-up
     * launches do not grow with -b (20000 launches at 2 GiB would take about two minutes).
     */
    private long smallestParam() {
        for (long size = cfg.minBytes(); size <= cfg.maxBytes(); size = cfg.nextSize(size)) {
            long param = cfg.collective().paramCount(size, cfg.type(), nranks);
            if (param > 0) return Math.min(param, cfg.collective().paramAlignment(cfg.type()));
            if (cfg.stepFactor() <= 1 && cfg.stepBytes() <= 0) break;
        }
        return 0;
    }

    private int rootShown() {
        return cfg.collective() == Collective.BROADCAST || cfg.collective() == Collective.REDUCE ? cfg.root() : -1;
    }

    /**
     * Warm-up, timed iterations, then the data check, in nccl-tests' order, so none of the check's host work (filling
     * and comparing staging buffers) runs between the warm-up and the timed loop.
     */
    private NcclSizeResult.Timing measure(long param, boolean inPlace, DataPattern pattern, int warmupIters,
                                          int iters) {
        return measure(param, inPlace, pattern, warmupIters, iters, true);
    }

    private NcclSizeResult.Timing measure(long param, boolean inPlace, DataPattern pattern, int warmupIters,
                                          int iters, boolean sweep) {
        long t0 = System.nanoTime();
        for (int i = 0; i < warmupIters; i++) launchAll(param, inPlace);
        synchronizeAll();
        long t1 = System.nanoTime();
        for (NcclRank r : ranks) record(r, r.start());
        for (int i = 0; i < iters; i++) launchAll(param, inPlace);
        double slowestMs = 0;
        for (NcclRank r : ranks) record(r, r.end());
        for (NcclRank r : ranks) {
            cuda.eventSynchronize(r.end());
            slowestMs = Math.max(slowestMs, cuda.elapsedMs(r.start(), r.end()));
        }
        long t2 = System.nanoTime();
        double seconds = group.averageSeconds(slowestMs / 1e3 / iters);
        double algbw = cfg.collective().algbw(param, cfg.type(), nranks, seconds);
        long wrong = cfg.check() ? checkedRun(param, inPlace, pattern) : -1;
        if (sweep) phases.add(t0, t1, t2, System.nanoTime());
        return new NcclSizeResult.Timing(seconds * 1e6, algbw, algbw * cfg.collective().busFactor(nranks), wrong);
    }

    /** The sweep's own phases, summed over its sizes, for --timings. */
    private static final class Phases {
        private long first = -1;
        private long warmup;
        private long timed;
        private long check;

        void add(long t0, long t1, long t2, long t3) {
            if (first < 0) first = t0;
            warmup += t1 - t0;
            timed += t2 - t1;
            check += t3 - t2;
        }

        void report(Timings timings) {
            if (first < 0) return;
            timings.recordSum("warm-up iterations (-w), all sizes", first, warmup);
            timings.recordSum("timed iterations (-n, between CUDA events), all sizes", first + warmup, timed);
            timings.recordSum("data check (-c: fill, launch, copy back, compare), all sizes", first + warmup + timed, check);
        }
    }

    /** One more launch on freshly written inputs; returns the wrong elements summed over all ranks. */
    private long checkedRun(long param, boolean inPlace, DataPattern pattern) {
        for (NcclRank r : ranks) prepare(r, param, inPlace, pattern);
        // cudaMemset runs on the legacy stream, which the ranks' non-blocking streams do not wait for
        for (NcclRank r : ranks) {
            cuda.setDevice(r.device());
            cuda.deviceSynchronize();
        }
        launchAll(param, inPlace);
        synchronizeAll();
        long local = 0;
        for (NcclRank r : ranks) local += verify(r, param, inPlace, pattern);
        return group.sumWrong(local);
    }

    private void launchAll(long param, boolean inPlace) {
        boolean grouped = ranks.size() > 1;
        if (grouped) nccl.groupStart();
        for (NcclRank r : ranks) launch(r, param, inPlace);
        if (grouped) nccl.groupEnd();
    }

    private void launch(NcclRank r, long param, boolean inPlace) {
        int t = cfg.type().ncclCode;
        long chunk = param * cfg.type().bytes;
        DeviceBuffer recv = r.recv();
        switch (cfg.collective()) {
            case ALL_REDUCE -> nccl.allReduce(inPlace ? recv : r.send(), recv, param, t, cfg.op(), r.comm(), r.stream());
            case ALL_GATHER -> nccl.allGather(inPlace ? r.recvAt(r.rank() * chunk) : r.send(), recv, param, t,
                    r.comm(), r.stream());
            case REDUCE_SCATTER -> nccl.reduceScatter(r.send(), inPlace ? r.sendAt(r.rank() * chunk) : recv, param,
                    t, cfg.op(), r.comm(), r.stream());
            case BROADCAST -> nccl.broadcast(inPlace ? recv : r.send(), recv, param, t, cfg.root(), r.comm(), r.stream());
            case REDUCE -> nccl.reduce(inPlace ? recv : r.send(), recv, param, t, cfg.op(), cfg.root(), r.comm(),
                    r.stream());
            case ALLTOALL -> {
                nccl.groupStart();
                for (int peer = 0; peer < nranks; peer++) {
                    nccl.send(r.sendAt(peer * chunk), param, t, peer, r.comm(), r.stream());
                    nccl.recv(r.recvAt(peer * chunk), param, t, peer, r.comm(), r.stream());
                }
                nccl.groupEnd();
            }
            case SENDRECV -> {
                nccl.groupStart();
                nccl.send(r.send(), param, t, (r.rank() + 1) % nranks, r.comm(), r.stream());
                nccl.recv(recv, param, t, (r.rank() - 1 + nranks) % nranks, r.comm(), r.stream());
                nccl.groupEnd();
            }
        }
    }

    private void record(NcclRank r, CudaEvent event) {
        if (ranks.size() > 1) cuda.setDevice(r.device());
        cuda.eventRecord(event, r.stream());
    }

    private void synchronizeAll() {
        for (NcclRank r : ranks) cuda.streamSynchronize(r.stream());
    }

    /** Inputs hold rank + 1 in every element; outputs are cleared so stale data cannot pass the check. */
    private void prepare(NcclRank r, long param, boolean inPlace, DataPattern pattern) {
        cuda.setDevice(r.device());
        DataType type = cfg.type();
        Collective c = cfg.collective();
        long sendElems = c.sendCount(param, nranks);
        long recvElems = c.recvCount(param, nranks);
        int mine = r.rank() + 1;
        if (!inPlace) {
            pattern.fill(r.send(), sendElems, type, mine, r.stream());
            cuda.memset(r.recv(), 0, recvElems * type.bytes);
            return;
        }
        switch (c) {
            case ALL_GATHER -> {
                cuda.memset(r.recv(), 0, recvElems * type.bytes);
                pattern.fill(r.recvAt(r.rank() * param * type.bytes), param, type, mine, r.stream());
            }
            case REDUCE_SCATTER -> pattern.fill(r.send(), sendElems, type, mine, r.stream());
            default -> pattern.fill(r.recv(), recvElems, type, mine, r.stream());
        }
    }

    private long verify(NcclRank r, long param, boolean inPlace, DataPattern pattern) {
        cuda.setDevice(r.device());
        DataType type = cfg.type();
        long chunkBytes = param * type.bytes;
        return switch (cfg.collective()) {
            case ALL_REDUCE -> reducedOrSkip(pattern, r, r.recv(), param);
            case REDUCE_SCATTER -> reducedOrSkip(pattern, r, inPlace ? r.sendAt(r.rank() * chunkBytes) : r.recv(), param);
            case REDUCE -> r.rank() == cfg.root() ? reducedOrSkip(pattern, r, r.recv(), param) : 0;
            case BROADCAST -> pattern.countWrong(r.recv(), param, type, cfg.root() + 1, r.stream());
            case ALL_GATHER, ALLTOALL -> {
                long wrong = 0;
                for (int j = 0; j < nranks; j++) wrong += pattern.countWrong(r.recvAt(j * chunkBytes), param, type, j + 1, r.stream());
                yield wrong;
            }
            case SENDRECV -> pattern.countWrong(r.recv(), param, type, (r.rank() - 1 + nranks) % nranks + 1, r.stream());
        };
    }

    private long reducedOrSkip(DataPattern pattern, NcclRank r, DeviceBuffer buf, long param) {
        return ExpectedReduction.of(cfg.op(), nranks, cfg.type())
                .map(v -> pattern.countWrong(buf, param, cfg.type(), v, r.stream()))
                .orElse(0L);
    }
}
