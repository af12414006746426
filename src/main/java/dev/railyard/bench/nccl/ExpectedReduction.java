package dev.railyard.bench.nccl;

import java.util.Optional;

/** What reducing the inputs 1..n gives for each op, when the data type holds it exactly (otherwise not checked). */
final class ExpectedReduction {

    private ExpectedReduction() {
    }

    static Optional<Integer> of(int op, int nranks, DataType type) {
        long v = switch (op) {
            case 0 -> (long) nranks * (nranks + 1) / 2;
            case 1 -> factorial(nranks);
            case 2 -> nranks;
            case 3 -> 1;
            default -> -1; // avg: (n+1)/2 is not an integer for even n, and integer types round it
        };
        if (v < 0 || v > limit(type)) return Optional.empty();
        return Optional.of((int) v);
    }

    private static long factorial(int n) {
        long f = 1;
        for (int i = 2; i <= n && f < Integer.MAX_VALUE; i++) f *= i;
        return f;
    }

    /** Largest integer the type holds exactly. */
    private static long limit(DataType type) {
        return switch (type) {
            case INT8 -> 127;
            case UINT8 -> 255;
            case BFLOAT16 -> 256;
            case HALF -> 2048;
            case FLOAT -> 1 << 24;
            default -> Integer.MAX_VALUE;
        };
    }
}
