package dev.railyard.bench.nccl;

/** What to measure: nccl-tests' -b/-e/-f/-w/-n/-d/-o/-r/-c flags, with its meanings. */
public record NcclBenchConfig(
        Collective collective,
        DataType type,
        int op,
        String opLabel,
        int root,
        long minBytes,
        long maxBytes,
        int stepFactor,
        long stepBytes,
        int warmupIters,
        int iters,
        boolean check,
        int jitWarmupLaunches) {

    public NcclBenchConfig {
        if (minBytes <= 0 || maxBytes < minBytes) throw new IllegalArgumentException("need 0 < -b <= -e");
        if (stepFactor < 1 && stepBytes <= 0) throw new IllegalArgumentException("-f must be >= 2 or -i > 0");
        if (iters < 1) throw new IllegalArgumentException("-n must be at least 1");
    }

    /** nccl-tests' op codes: sum, prod, max, min, avg. */
    public static int opCode(String label) {
        return switch (label.toLowerCase(java.util.Locale.ROOT)) {
            case "sum" -> 0;
            case "prod" -> 1;
            case "max" -> 2;
            case "min" -> 3;
            case "avg" -> 4;
            default -> throw new IllegalArgumentException("unknown op " + label + " (one of sum, prod, max, min, avg)");
        };
    }

    public long nextSize(long size) {
        return stepBytes > 0 ? size + stepBytes : size * stepFactor;
    }
}
