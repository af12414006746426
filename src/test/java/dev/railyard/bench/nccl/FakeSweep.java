package dev.railyard.bench.nccl;

import dev.railyard.model.NcclSizeResult;

import dev.railyard.nativelib.FakeCudaLibraries;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/** A bench nccl sweep (NcclSession + NcclBenchmark, as BenchNcclCommand runs them) over the fake libraries. */
record FakeSweep(FakeCudaLibraries fake, int gpus, NcclBenchConfig cfg) {

    /** -b 8 -e 64K -f 4 -w 1 -n 2 -c 1, float sum, root 0, one JIT warm-up launch (the 160 path passes still run). */
    static NcclBenchConfig config(Collective c) {
        return config(c, DataType.FLOAT, "sum", 8, 64 << 10, 4);
    }

    static NcclBenchConfig config(Collective c, DataType type, String op, long min, long max, int factor) {
        return new NcclBenchConfig(c, type, NcclBenchConfig.opCode(op), op, 0, min, max, factor, 0, 1, 2, true, 1);
    }

    /** What a run gave: the rows returned, the rows handed to onRow, and the ranks (their event handles). */
    record Outcome(List<NcclSizeResult> rows, List<NcclSizeResult> streamed, List<NcclRank> ranks) {}

    Outcome run() {
        List<NcclSizeResult> streamed = new ArrayList<>();
        try (NcclSession session = open()) {
            return new Outcome(run(session, streamed), streamed, session.ranks());
        }
    }

    NcclSession open() {
        NcclSession session = NcclSession.open(List.of(fake.cudart().toString()), List.of(fake.nccl().toString()));
        session.initAll(IntStream.range(0, gpus).toArray(), Math.max(cfg.maxBytes(), 16) + 64);
        return session;
    }

    List<NcclSizeResult> run(NcclSession session, List<NcclSizeResult> streamed) {
        return new NcclBenchmark(session.cuda(), session.nccl(), session.ranks(), gpus, RankGroup.singleProcess(), cfg)
                .run(streamed::add);
    }

    /** As {@link #run(NcclSession, List)} with the given warm-up instead of the one the benchmark picks. */
    List<NcclSizeResult> run(NcclSession session, NcclBenchmark.WarmUp warmUp) {
        return new NcclBenchmark(session.cuda(), session.nccl(), session.ranks(), gpus, RankGroup.singleProcess(), cfg)
                .warmingUp(warmUp).run(r -> { });
    }

    /** The byte sizes the table shows for -b/-e/-f: every step whose per-rank count is not 0. */
    List<Long> expectedSizes() {
        List<Long> sizes = new ArrayList<>();
        Collective c = cfg.collective();
        for (long size = cfg.minBytes(); size <= cfg.maxBytes(); size = cfg.nextSize(size)) {
            long param = c.paramCount(size, cfg.type(), gpus);
            if (param > 0) sizes.add(Math.max(c.sendCount(param, gpus), c.recvCount(param, gpus)) * cfg.type().bytes);
        }
        return sizes;
    }
}
