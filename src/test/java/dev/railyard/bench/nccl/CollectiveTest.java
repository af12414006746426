package dev.railyard.bench.nccl;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class CollectiveTest {

    @Test
    void busFactorsMatchNcclTests() {
        assertThat(Collective.ALL_REDUCE.busFactor(8)).isEqualTo(14.0 / 8);
        assertThat(Collective.ALL_GATHER.busFactor(4)).isEqualTo(0.75);
        assertThat(Collective.REDUCE_SCATTER.busFactor(2)).isEqualTo(0.5);
        assertThat(Collective.ALLTOALL.busFactor(4)).isEqualTo(0.75);
        assertThat(Collective.BROADCAST.busFactor(8)).isEqualTo(1.0);
        assertThat(Collective.SENDRECV.busFactor(2)).isEqualTo(1.0);
    }

    @Test
    void allReduceOf2GiBIn6350usIsAbout338GBpsBusOnTwoRanks() {
        long bytes = 2L << 30;
        long param = Collective.ALL_REDUCE.paramCount(bytes, DataType.FLOAT, 2);
        double algbw = Collective.ALL_REDUCE.algbw(param, DataType.FLOAT, 2, 6350e-6);
        assertThat(algbw).isCloseTo(338.2, within(0.1));
        assertThat(algbw * Collective.ALL_REDUCE.busFactor(2)).isCloseTo(338.2, within(0.1));
    }

    @Test
    void perRankCountsAreAlignedTo16BytesLikeNcclTests() {
        // 1000 floats over 3 ranks: 333 per rank, rounded down to a multiple of 4 floats
        assertThat(Collective.ALL_GATHER.paramCount(4000, DataType.FLOAT, 3)).isEqualTo(332);
        assertThat(Collective.ALL_GATHER.recvCount(332, 3)).isEqualTo(996);
        assertThat(Collective.REDUCE_SCATTER.sendCount(332, 3)).isEqualTo(996);
        assertThat(Collective.ALL_REDUCE.paramCount(4000, DataType.FLOAT, 3)).isEqualTo(1000);
        assertThat(Collective.ALL_GATHER.paramCount(8, DataType.FLOAT, 4)).isZero();
    }

    @Test
    void theSmallestCountACollectiveTakesIsOne16ByteUnitForChunkedOnes() {
        assertThat(Collective.ALL_GATHER.paramAlignment(DataType.FLOAT)).isEqualTo(4);
        assertThat(Collective.ALLTOALL.paramAlignment(DataType.DOUBLE)).isEqualTo(2);
        assertThat(Collective.REDUCE_SCATTER.paramAlignment(DataType.INT8)).isEqualTo(16);
        assertThat(Collective.ALL_REDUCE.paramAlignment(DataType.FLOAT)).isEqualTo(1);
        // the aligned unit is itself a valid count for every rank count
        assertThat(Collective.ALL_GATHER.paramCount(4 * 4 * 8, DataType.FLOAT, 8)).isEqualTo(4);
    }

    @Test
    void parsesNcclTestsNames() {
        assertThat(Collective.parse("all_reduce_perf")).isEqualTo(Collective.ALL_REDUCE);
        assertThat(Collective.parse("allgather")).isEqualTo(Collective.ALL_GATHER);
        assertThat(Collective.parse("reduce-scatter")).isEqualTo(Collective.REDUCE_SCATTER);
    }

    @Test
    void expectedReductionsHoldExactlyOrAreNotChecked() {
        assertThat(ExpectedReduction.of(0, 4, DataType.FLOAT)).contains(10);
        assertThat(ExpectedReduction.of(1, 4, DataType.INT32)).contains(24);
        assertThat(ExpectedReduction.of(2, 8, DataType.BFLOAT16)).contains(8);
        assertThat(ExpectedReduction.of(1, 6, DataType.INT8)).isEmpty(); // 720 does not fit
        assertThat(ExpectedReduction.of(4, 4, DataType.FLOAT)).isEmpty(); // avg is not checked
    }
}
