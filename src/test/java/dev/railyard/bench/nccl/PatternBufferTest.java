package dev.railyard.bench.nccl;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import static org.assertj.core.api.Assertions.assertThat;

class PatternBufferTest {

    @Test
    void fillsOnlyAsFarAsAskedAndExtendsLater() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment seg = a.allocate(64 * 4);
            PatternBuffer p = new PatternBuffer(seg);
            assertThat(p.prepare(DataType.FLOAT, 3, 4)).isEqualTo(4);
            assertThat(seg.get(ValueLayout.JAVA_FLOAT, 3 * 4)).isEqualTo(3f);
            assertThat(seg.get(ValueLayout.JAVA_FLOAT, 4 * 4)).isZero(); // untouched past what was asked
            assertThat(p.prepare(DataType.FLOAT, 3, 10)).isEqualTo(10);
            assertThat(seg.get(ValueLayout.JAVA_FLOAT, 9 * 4)).isEqualTo(3f);
        }
    }

    @Test
    void aNewValueOrTypeRefillsFromTheStartAndTheCapacityCaps() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment seg = a.allocate(16 * 4);
            PatternBuffer p = new PatternBuffer(seg);
            p.prepare(DataType.FLOAT, 1, 16);
            assertThat(p.prepare(DataType.FLOAT, 2, 1000)).isEqualTo(16);
            for (int i = 0; i < 16; i++) assertThat(seg.get(ValueLayout.JAVA_FLOAT, i * 4L)).isEqualTo(2f);
            assertThat(p.prepare(DataType.INT32, 2, 16)).isEqualTo(16);
            assertThat(seg.get(ValueLayout.JAVA_INT, 15 * 4L)).isEqualTo(2);
            assertThat(p.prepare(DataType.BFLOAT16, 5, 1000)).isEqualTo(32);
            assertThat(seg.get(ValueLayout.JAVA_SHORT, 31 * 2L)).isEqualTo((short) 0x40a0); // 5.0 in bfloat16
        }
    }
}
