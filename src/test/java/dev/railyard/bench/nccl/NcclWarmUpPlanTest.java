package dev.railyard.bench.nccl;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The JIT warm-up follows the sizes asked for: nccl-tests' own command for one 2 GiB size ran 20000 untimed small
 * launches and 160 passes first (part of 3512 ms against nccl-tests' 2544 ms on 2 x H200); a sweep from 8 B keeps both.
 */
class NcclWarmUpPlanTest {

    private static NcclBenchConfig allReduce(long min, long max, int jit) {
        return new NcclBenchConfig(Collective.ALL_REDUCE, DataType.FLOAT, 0, "sum", 0, min, max, 2, 0, 5, 20, true, jit);
    }

    @Test
    void oneLargeSizeOnTwoGpusNeedsNoWarmUp() {
        assertThat(NcclBenchmark.warmUpFor(allReduce(2L << 30, 2L << 30, 20000), 2, 2))
                .isEqualTo(new NcclBenchmark.WarmUp(0, 0));
        // one rank per process (--procs 2, mpirun): one launch per iteration in each
        assertThat(NcclBenchmark.warmUpFor(allReduce(2L << 30, 2L << 30, 20000), 1, 2))
                .isEqualTo(new NcclBenchmark.WarmUp(0, 0));
    }

    @Test
    void aSweepFromSmallSizesKeepsTheWholeWarmUp() {
        assertThat(NcclBenchmark.warmUpFor(allReduce(8, 2L << 30, 20000), 2, 2))
                .isEqualTo(new NcclBenchmark.WarmUp(20000, NcclBenchmark.PATH_WARMUP_PASSES));
        assertThat(NcclBenchmark.warmUpFor(allReduce((256L << 20) - 4, 256L << 20, 20000), 2, 2).launches())
                .isEqualTo(20000);
    }

    @Test
    void largeSizesSkipTheLaunchesButKeepThePassesWhenTheSweepIsLong() {
        assertThat(NcclBenchmark.warmUpFor(allReduce(256L << 20, 2L << 30, 20000), 2, 2))
                .isEqualTo(new NcclBenchmark.WarmUp(0, NcclBenchmark.PATH_WARMUP_PASSES));
        assertThat(NcclBenchmark.warmUpFor(allReduce(2L << 30, 2L << 30, 20000), 4, 4))
                .isEqualTo(new NcclBenchmark.WarmUp(0, NcclBenchmark.PATH_WARMUP_PASSES));
    }

    @Test
    void zeroTurnsItOff() {
        assertThat(NcclBenchmark.warmUpFor(allReduce(8, 1 << 20, 0), 2, 2)).isEqualTo(new NcclBenchmark.WarmUp(0, 0));
    }
}
