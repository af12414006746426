package dev.railyard.bench.nccl;

/**
 * The collectives nccl-tests measures, with its algbw/busbw factors (src/*.cu GetBw) and element counts.
 * {@code count} is the per-call parameter NCCL takes; {@code size} in bytes is what the table's first column shows.
 */
public enum Collective {
    ALL_REDUCE("all_reduce", true),
    ALL_GATHER("all_gather", true),
    REDUCE_SCATTER("reduce_scatter", true),
    BROADCAST("broadcast", true),
    REDUCE("reduce", true),
    ALLTOALL("alltoall", false),
    SENDRECV("sendrecv", false);

    public final String label;
    /** nccl-tests runs these in place too; alltoall and sendrecv report N/A there. */
    public final boolean inPlace;

    Collective(String label, boolean inPlace) {
        this.label = label;
        this.inPlace = inPlace;
    }

    public static Collective parse(String text) {
        String t = text.toLowerCase(java.util.Locale.ROOT).replace("-", "_").replace("_perf", "");
        for (Collective c : values()) if (c.label.equals(t) || c.label.replace("_", "").equals(t)) return c;
        throw new IllegalArgumentException("unknown collective " + text
                + " (one of all_reduce, all_gather, reduce_scatter, broadcast, reduce, alltoall, sendrecv)");
    }

    /** The NCCL count argument for a message of {@code bytes}: per-rank chunks are 16-byte aligned, as in nccl-tests. */
    public long paramCount(long bytes, DataType type, int nranks) {
        long count = bytes / type.bytes;
        return switch (this) {
            case ALL_GATHER, REDUCE_SCATTER, ALLTOALL -> (count / nranks) & ~(paramAlignment(type) - 1);
            default -> count;
        };
    }

    /** Per-rank chunks are whole 16-byte units (as in nccl-tests); other collectives take any count. */
    public long paramAlignment(DataType type) {
        return switch (this) {
            case ALL_GATHER, REDUCE_SCATTER, ALLTOALL -> Math.max(1, 16 / type.bytes);
            default -> 1;
        };
    }

    /** Elements each rank sends. */
    public long sendCount(long param, int nranks) {
        return switch (this) {
            case REDUCE_SCATTER, ALLTOALL -> param * nranks;
            default -> param;
        };
    }

    /** Elements each rank receives. */
    public long recvCount(long param, int nranks) {
        return switch (this) {
            case ALL_GATHER, ALLTOALL -> param * nranks;
            default -> param;
        };
    }

    /** GB/s of data the algorithm moves per second, as nccl-tests computes it. */
    public double algbw(long param, DataType type, int nranks, double seconds) {
        double base = switch (this) {
            case ALL_GATHER, REDUCE_SCATTER, ALLTOALL -> (double) param * type.bytes * nranks;
            default -> (double) param * type.bytes;
        };
        return base / 1.0e9 / seconds;
    }

    /** busbw = algbw x factor: comparable to the hardware's link bandwidth whatever the rank count. */
    public double busFactor(int nranks) {
        return switch (this) {
            case ALL_REDUCE -> 2.0 * (nranks - 1) / nranks;
            case ALL_GATHER, REDUCE_SCATTER, ALLTOALL -> (double) (nranks - 1) / nranks;
            case BROADCAST, REDUCE, SENDRECV -> 1.0;
        };
    }
}
