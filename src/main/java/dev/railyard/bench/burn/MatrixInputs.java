package dev.railyard.bench.burn;

import dev.railyard.model.BurnResult.Precision;

import java.util.SplittableRandom;

/**
 * The seeded inputs every GPU multiplies, and the CPU's answer for a tile of the result.
 *
 * <p>Each element is +-(1 + m/8) x 2^e with m in 0..7 and e in {-1, 0}: exact in FP8 E4M3, BF16 and FP32 alike, so
 * the three precisions multiply the same numbers. Every product is a multiple of 2^-8 below 4, so a sum of up to
 * 8192 of them needs 23 bits and FP32 accumulation is exact in any order: the CPU's answer in double is the exact
 * one, and a GPU that differs has computed something else (tensor cores that accumulate FP8 in fewer bits round a
 * little, hence a relative tolerance in {@link #tileMismatches}).
 *
 * <p>Layout as FfmCublasLt multiplies: A and B are n x n column-major, the result D = A^T x B, so
 * D(i, j) = sum over k of A[k + i n] x B[k + j n].
 */
public final class MatrixInputs {

    /** Relative error at which a result element no longer counts as the same number. */
    static final double TOLERANCE = 1.0 / 256;

    private final int n;
    private final byte[] a;
    private final byte[] b;

    private MatrixInputs(int n, byte[] a, byte[] b) {
        this.n = n;
        this.a = a;
        this.b = b;
    }

    /** n x n inputs A and B from {@code seed}: the same seed gives the same matrices on every node. */
    public static MatrixInputs seeded(int n, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        byte[] a = new byte[Math.multiplyExact(n, n)];
        byte[] b = new byte[a.length];
        for (int i = 0; i < a.length; i++) a[i] = (byte) random.nextInt(32);
        for (int i = 0; i < b.length; i++) b[i] = (byte) random.nextInt(32);
        return new MatrixInputs(n, a, b);
    }

    public int n() {
        return n;
    }

    /** The value a code stands for: bit 4 the sign, bit 3 the exponent (-1 or 0), bits 0-2 the mantissa. */
    static double value(byte code) {
        double v = (1 + (code & 7) / 8.0) * ((code & 8) != 0 ? 1 : 0.5);
        return (code & 16) != 0 ? -v : v;
    }

    /** A as the GPU reads it in {@code precision}, little-endian. */
    public byte[] encodedA(Precision precision) {
        return encode(a, precision);
    }

    public byte[] encodedB(Precision precision) {
        return encode(b, precision);
    }

    static byte[] encode(byte[] codes, Precision precision) {
        int size = bytes(precision);
        byte[] out = new byte[Math.multiplyExact(codes.length, size)];
        for (int i = 0; i < codes.length; i++) {
            byte c = codes[i];
            switch (precision) {
                case FP8 -> // E4M3: sign, 4 exponent bits biased by 7, 3 mantissa bits
                        out[i] = (byte) (((c & 16) << 3) | ((((c & 8) != 0 ? 0 : -1) + 7) << 3) | (c & 7));
                case BF16 -> {
                    int bits = Float.floatToRawIntBits((float) value(c)) >>> 16;
                    out[2 * i] = (byte) bits;
                    out[2 * i + 1] = (byte) (bits >>> 8);
                }
                case FP32 -> {
                    int bits = Float.floatToRawIntBits((float) value(c));
                    for (int k = 0; k < 4; k++) out[4 * i + k] = (byte) (bits >>> (8 * k));
                }
                case FP64 -> throw new IllegalArgumentException("burn does not load in FP64");
            }
        }
        return out;
    }

    public static int bytes(Precision precision) {
        return switch (precision) {
            case FP8 -> 1;
            case BF16 -> 2;
            case FP32 -> 4;
            case FP64 -> 8;
        };
    }

    /** D(i, j) exactly, with the sum of the products' magnitudes it is judged against. */
    double[] exact(int i, int j) {
        double sum = 0, magnitude = 0;
        int ai = i * n, bj = j * n;
        for (int k = 0; k < n; k++) {
            double p = value(a[ai + k]) * value(b[bj + k]);
            sum += p;
            magnitude += Math.abs(p);
        }
        return new double[]{sum, magnitude};
    }

    /** What the tile comparison found: elements that differ, and the largest relative error of any element. */
    public record TileCheck(int size, long mismatches, double maxRelativeError) {}

    /**
     * Compares the top-left {@code size} x {@code size} tile of a result with the exact answer;
     * {@code element.at(i, j)} reads D(i, j) as the GPU wrote it.
     */
    public TileCheck tileMismatches(int size, ResultElements element) {
        int t = Math.min(size, n);
        long wrong = 0;
        double worst = 0;
        for (int j = 0; j < t; j++) {
            for (int i = 0; i < t; i++) {
                double[] e = exact(i, j);
                double error = Math.abs(element.at(i, j) - e[0]) / e[1];
                if (!(error <= TOLERANCE)) wrong++; // NaN counts as wrong
                worst = Double.isNaN(error) ? Double.POSITIVE_INFINITY : Math.max(worst, error);
            }
        }
        return new TileCheck(t, wrong, worst);
    }

    /** A result's element D(i, j). */
    @FunctionalInterface
    public interface ResultElements {
        double at(int i, int j);
    }
}
