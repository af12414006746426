package dev.railyard.bench.burn;

import dev.railyard.model.BurnResult.Precision;

import java.time.Duration;
import java.util.List;
import java.util.OptionalDouble;

/**
 * What to burn and how: {@code precisions} empty means the best the GPUs have (FP8 and BF16 from compute capability
 * 8.9, BF16 from 8.0, else FP32), each taking an equal share of {@code duration}; {@code devices} empty means every
 * GPU. {@code gpuWatts} empty takes plan power's GPU figure from the GPUs' enforced power limit.
 */
public record BurnOptions(
        Duration duration,
        List<Precision> precisions,
        List<Integer> devices,
        int matrixSize,
        double tolerancePercent,
        Duration samplePeriod,
        OptionalDouble gpuWatts,
        double hostWatts,
        long seed) {

    public static final int DEFAULT_MATRIX = 8192;
    public static final long DEFAULT_SEED = 0x5241494cL;
    /** The CPU checks this square of each result. */
    static final int TILE = 64;

    public BurnOptions {
        precisions = List.copyOf(precisions);
        devices = List.copyOf(devices);
    }

    /** Defaults for every option but the duration. */
    public static BurnOptions of(Duration duration) {
        return new BurnOptions(duration, List.of(), List.of(), DEFAULT_MATRIX, 10, Duration.ofSeconds(1),
                OptionalDouble.empty(), 0, DEFAULT_SEED);
    }

    /** The precisions a GPU of compute capability {@code cc} (90 for 9.0) runs when none are asked for. */
    public static List<Precision> bestFor(int cc) {
        if (cc >= 89) return List.of(Precision.FP8, Precision.BF16);
        if (cc >= 80) return List.of(Precision.BF16);
        return List.of(Precision.FP32);
    }

    /** The lowest compute capability that has a precision's matrix kernels in cuBLASLt. */
    public static int minimumCapability(Precision p) {
        return switch (p) {
            case FP8 -> 89;
            case BF16 -> 80;
            case FP32 -> 0;
            case FP64 -> Integer.MAX_VALUE; // never loaded by burn: only read from other tools' output
        };
    }
}
