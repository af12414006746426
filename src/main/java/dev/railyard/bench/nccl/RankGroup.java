package dev.railyard.bench.nccl;

/**
 * How per-process numbers become the table's numbers. One process driving all GPUs needs nothing; one process per
 * rank averages the time and sums #wrong across ranks (as nccl-tests does with MPI), and only rank 0 prints.
 */
public interface RankGroup extends AutoCloseable {

    boolean reports();

    double averageSeconds(double localSeconds);

    long sumWrong(long localWrong);

    @Override
    default void close() {
    }

    static RankGroup singleProcess() {
        return new RankGroup() {
            @Override
            public boolean reports() {
                return true;
            }

            @Override
            public double averageSeconds(double localSeconds) {
                return localSeconds;
            }

            @Override
            public long sumWrong(long localWrong) {
                return localWrong;
            }
        };
    }
}
