package dev.railyard.bench.burn;

/**
 * What one GPU's load has done so far, published by its thread after each batch and read by the sampler: one
 * immutable snapshot behind a volatile, so a reader never sees the work of one batch with the time of another.
 */
final class LoadCounter {

    /** Multiplies, their floating-point operations and the GPU time they took, since the load began. */
    record Snapshot(long multiplies, double flops, long gpuNanos) {
        static final Snapshot ZERO = new Snapshot(0, 0, 0);

        Snapshot plus(long m, double f, long nanos) {
            return new Snapshot(multiplies + m, flops + f, gpuNanos + nanos);
        }

        /** TFLOP/s of the work done between {@code earlier} and this; NaN when none finished. */
        double tflopsSince(Snapshot earlier) {
            long nanos = gpuNanos - earlier.gpuNanos;
            return nanos <= 0 ? Double.NaN : (flops - earlier.flops) / nanos / 1e3;
        }
    }

    private volatile Snapshot current = Snapshot.ZERO;

    Snapshot read() {
        return current;
    }

    /** Only the GPU's own thread adds. */
    void add(long multiplies, double flops, long gpuNanos) {
        current = current.plus(multiplies, flops, gpuNanos);
    }
}
