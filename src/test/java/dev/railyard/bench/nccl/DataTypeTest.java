package dev.railyard.bench.nccl;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DataTypeTest {

    @Test
    void encodesSmallIntegersBitExactly() {
        assertThat(view(DataType.BFLOAT16.encode(3)).getShort()).isEqualTo((short) 0x4040); // 3.0 in bfloat16
        assertThat(view(DataType.HALF.encode(3)).getShort()).isEqualTo((short) 0x4200); // 3.0 in IEEE half
        assertThat(view(DataType.FLOAT.encode(10)).getFloat()).isEqualTo(10f);
        assertThat(view(DataType.INT64.encode(36)).getLong()).isEqualTo(36L);
        assertThat(DataType.UINT8.encode(5)).containsExactly(5);
        for (DataType t : DataType.values()) assertThat(t.encode(1)).hasSize(t.bytes);
    }

    private static ByteBuffer view(byte[] element) {
        return ByteBuffer.wrap(element).order(ByteOrder.nativeOrder());
    }

    @Test
    void parsesNcclTestsAndCommonNames() {
        assertThat(DataType.parse("float")).isEqualTo(DataType.FLOAT);
        assertThat(DataType.parse("bf16")).isEqualTo(DataType.BFLOAT16);
        assertThat(DataType.parse("half").ncclCode).isEqualTo(6);
        assertThatThrownBy(() -> DataType.parse("fp8")).hasMessageContaining("one of int8");
    }
}
