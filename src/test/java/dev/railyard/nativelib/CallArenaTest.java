package dev.railyard.nativelib;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import static org.assertj.core.api.Assertions.assertThat;

/** The per-thread memory of OpenInRoot's calls: zeroed on reuse, aligned, apart when nested, large needs freed. */
class CallArenaTest {

    @Test
    void memoryComesBackZeroedForTheNextCall() {
        long address;
        try (Arena a = CallArena.open()) {
            MemorySegment s = a.allocate(24, 8);
            s.fill((byte) 0x5a);
            address = s.address();
        }
        try (Arena a = CallArena.open()) {
            MemorySegment s = a.allocate(24, 8);
            // the same memory, as a struct like open_how must see it: all zero
            assertThat(s.address()).isEqualTo(address);
            for (long i = 0; i < 24; i++) assertThat(s.get(ValueLayout.JAVA_BYTE, i)).isZero();
        }
    }

    @Test
    void slicesAreAlignedAndDoNotOverlap() {
        try (Arena a = CallArena.open()) {
            MemorySegment one = a.allocate(3, 1);
            MemorySegment two = a.allocate(256, 8);
            MemorySegment three = a.allocateFrom("sys/class/infiniband");
            assertThat(two.address() % 8).isZero();
            assertThat(one.asOverlappingSlice(two)).isEmpty();
            assertThat(two.asOverlappingSlice(three)).isEmpty();
            assertThat(three.getString(0)).isEqualTo("sys/class/infiniband");
        }
    }

    @Test
    void aCallInsideACallGetsMemoryOfItsOwn() {
        try (Arena outer = CallArena.open()) {
            MemorySegment o = outer.allocate(64, 8);
            try (Arena inner = CallArena.open()) {
                assertThat(inner).isNotSameAs(outer);
                MemorySegment i = inner.allocate(64, 8);
                assertThat(i.asOverlappingSlice(o)).isEmpty();
            }
            assertThat(outer.allocate(8, 8).asOverlappingSlice(o)).isEmpty();
        }
    }

    @Test
    void whatDoesNotFitIsFreedOnClose() {
        MemorySegment big;
        try (Arena a = CallArena.open()) {
            big = a.allocate(64 * 1024, 8);
            big.set(ValueLayout.JAVA_BYTE, 64 * 1024 - 1, (byte) 1);
            assertThat(big.scope().isAlive()).isTrue();
        }
        assertThat(big.scope().isAlive()).isFalse();
    }
}
