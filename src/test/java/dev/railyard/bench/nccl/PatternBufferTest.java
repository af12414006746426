package dev.railyard.bench.nccl;

import dev.railyard.nativelib.HostBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static org.assertj.core.api.Assertions.assertThat;

class PatternBufferTest {

    private static ByteBuffer view(HostBuffer b) {
        return ByteBuffer.wrap(b.toArray(0, b.bytes())).order(ByteOrder.nativeOrder());
    }

    @Test
    void fillsOnlyAsFarAsAskedAndExtendsLater() {
        HostBuffer buf = HostBuffer.unpinned(64 * 4);
        PatternBuffer p = new PatternBuffer(buf);
        assertThat(p.prepare(DataType.FLOAT, 3, 4)).isEqualTo(4);
        assertThat(view(buf).getFloat(3 * 4)).isEqualTo(3f);
        assertThat(view(buf).getFloat(4 * 4)).isZero(); // untouched past what was asked
        assertThat(p.prepare(DataType.FLOAT, 3, 10)).isEqualTo(10);
        assertThat(view(buf).getFloat(9 * 4)).isEqualTo(3f);
        assertThat(view(buf).getFloat(10 * 4)).isZero();
    }

    @Test
    void aNewValueOrTypeRefillsFromTheStartAndTheCapacityCaps() {
        HostBuffer buf = HostBuffer.unpinned(16 * 4);
        PatternBuffer p = new PatternBuffer(buf);
        p.prepare(DataType.FLOAT, 1, 16);
        assertThat(p.prepare(DataType.FLOAT, 2, 1000)).isEqualTo(16);
        for (int i = 0; i < 16; i++) assertThat(view(buf).getFloat(i * 4)).isEqualTo(2f);
        assertThat(p.prepare(DataType.INT32, 2, 16)).isEqualTo(16);
        assertThat(view(buf).getInt(15 * 4)).isEqualTo(2);
        assertThat(p.prepare(DataType.BFLOAT16, 5, 1000)).isEqualTo(32);
        assertThat(view(buf).getShort(31 * 2)).isEqualTo((short) 0x40a0); // 5.0 in bfloat16
    }

    @Test
    void countsEachDifferentElementOnce() {
        HostBuffer got = HostBuffer.unpinned(8 * 4);
        HostBuffer want = HostBuffer.unpinned(8 * 4);
        got.fill(DataType.INT32.encode(7), 0, 32);
        want.fill(DataType.INT32.encode(7), 0, 32);
        assertThat(got.countDifferentElements(want, 32, 4)).isZero();
        got.fill(DataType.INT32.encode(8), 4, 12);  // elements 1 and 2
        got.fill(DataType.INT32.encode(0x107), 28, 32); // element 7: only its second byte differs
        assertThat(got.countDifferentElements(want, 32, 4)).isEqualTo(3);
        assertThat(got.countDifferentElements(want, 4, 4)).isZero(); // only the first element compared
    }
}
