package dev.railyard.bench.nccl;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DataTypeTest {

    @Test
    void encodesSmallIntegersBitExactly() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment s = a.allocate(16);
            DataType.BFLOAT16.put(s, 1, 3);
            assertThat(s.get(ValueLayout.JAVA_SHORT_UNALIGNED, 2)).isEqualTo((short) 0x4040); // 3.0 in bfloat16
            DataType.HALF.put(s, 0, 3);
            assertThat(s.get(ValueLayout.JAVA_SHORT_UNALIGNED, 0)).isEqualTo((short) 0x4200); // 3.0 in IEEE half
            DataType.FLOAT.put(s, 1, 10);
            assertThat(s.get(ValueLayout.JAVA_FLOAT_UNALIGNED, 4)).isEqualTo(10f);
            DataType.INT64.put(s, 1, 36);
            assertThat(s.get(ValueLayout.JAVA_LONG_UNALIGNED, 8)).isEqualTo(36L);
        }
    }

    @Test
    void parsesNcclTestsAndCommonNames() {
        assertThat(DataType.parse("float")).isEqualTo(DataType.FLOAT);
        assertThat(DataType.parse("bf16")).isEqualTo(DataType.BFLOAT16);
        assertThat(DataType.parse("half").ncclCode).isEqualTo(6);
        assertThatThrownBy(() -> DataType.parse("fp8")).hasMessageContaining("one of int8");
    }
}
