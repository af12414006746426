package dev.railyard.bench.nccl;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * NCCL data types (ncclDataType_t codes). Benchmarks fill buffers with small integers (rank + 1) so every type,
 * even bfloat16, holds the sums exactly and results can be compared bit for bit.
 */
public enum DataType {
    INT8("int8", 0, 1), UINT8("uint8", 1, 1), INT32("int32", 2, 4), UINT32("uint32", 3, 4), INT64("int64", 4, 8),
    UINT64("uint64", 5, 8), HALF("half", 6, 2), FLOAT("float", 7, 4), DOUBLE("double", 8, 8), BFLOAT16("bfloat16", 9, 2);

    public final String label;
    public final int ncclCode;
    public final int bytes;

    DataType(String label, int ncclCode, int bytes) {
        this.label = label;
        this.ncclCode = ncclCode;
        this.bytes = bytes;
    }

    public static DataType parse(String text) {
        for (DataType t : values()) if (t.label.equalsIgnoreCase(text) || t.name().equalsIgnoreCase(text)) return t;
        return switch (text.toLowerCase(java.util.Locale.ROOT)) {
            case "fp32", "float32" -> FLOAT;
            case "fp16", "float16" -> HALF;
            case "bf16" -> BFLOAT16;
            case "fp64", "float64" -> DOUBLE;
            default -> throw new IllegalArgumentException("unknown data type " + text
                    + " (one of int8, uint8, int32, uint32, int64, uint64, half, float, double, bfloat16)");
        };
    }

    /** The small integer {@code value} as one element of this type, in the machine's byte order (what the GPU reads). */
    public byte[] encode(int value) {
        ByteBuffer b = ByteBuffer.allocate(bytes).order(ByteOrder.nativeOrder());
        switch (this) {
            case INT8, UINT8 -> b.put((byte) value);
            case INT32, UINT32 -> b.putInt(value);
            case INT64, UINT64 -> b.putLong(value);
            case HALF -> b.putShort(Float.floatToFloat16(value));
            case FLOAT -> b.putFloat(value);
            case DOUBLE -> b.putDouble(value);
            case BFLOAT16 -> b.putShort((short) (Float.floatToRawIntBits(value) >>> 16));
        }
        return b.array();
    }
}
